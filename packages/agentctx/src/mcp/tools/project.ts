import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RECORD_TYPES } from '../../core/types.js';
import { countByType, listRecords } from '../../storage/records-repo.js';
import type { ToolContext } from '../context.js';
import { type Json, registerTool } from '../result.js';

const description = `Overview of the current project: its name and id, detected stack, build/test/run commands, entry points, how many current records of each type are stored, and when the last session ran. Call it once at the start of work in an unfamiliar repository, or when you need the project's commands.`;

/** The profile keys of SPEC §5 and the spellings a `profile: <key>` title may use. */
const KEYS: Record<string, 'stack' | 'commands' | 'entry_points' | 'name'> = {
  stack: 'stack',
  commands: 'commands',
  command: 'commands',
  scripts: 'commands',
  entry_points: 'entry_points',
  'entry points': 'entry_points',
  entrypoints: 'entry_points',
  entry: 'entry_points',
  name: 'name',
};

function parseValue(body: string): unknown {
  const t = body.trim();
  if (/^[[{"]/.test(t)) {
    try {
      return JSON.parse(t);
    } catch {
      // plain text after all
    }
  }
  return t;
}

/**
 * Read the project's stored `profile` records (one per key, titled `profile: <key>`, newest
 * current one wins) into the §5 shape. Keys outside the shape go under `other`.
 */
export function readProfile(ctx: ToolContext): Json {
  const { app } = ctx;
  const db = app.db;
  const profile: Json = { stack: null, commands: null, entry_points: null };
  const other: Json = {};
  let name: unknown = null;
  const rows = listRecords(db, { namespaces: [app.project.id], types: ['profile'], limit: 200 });
  for (const r of rows.reverse()) {
    const raw = r.title.replace(/^profile\s*[:\-–]\s*/i, '').trim();
    const key = raw
      .toLowerCase()
      .replace(/[-\s]+/g, ' ')
      .trim();
    const mapped = KEYS[key] ?? KEYS[key.replace(/ /g, '_')];
    const value = parseValue(r.body);
    if (mapped === 'name') name = value;
    else if (mapped) profile[mapped] = value;
    else other[raw || r.id] = value;
  }
  const counts = countByType(db, app.project.id);
  const last = db
    .prepare('SELECT MAX(COALESCE(ended_at, started_at)) AS at FROM sessions WHERE project_id = ?')
    .get(app.project.id) as { at: string | null };
  const out: Json = {
    name: typeof name === 'string' && name ? name : app.project.name,
    project_id: app.project.id,
    stack: profile.stack,
    commands: profile.commands,
    entry_points: profile.entry_points,
    record_counts_by_type: Object.fromEntries(RECORD_TYPES.map((t) => [t, counts[t] ?? 0])),
    last_session_at: last.at ?? null,
  };
  if (Object.keys(other).length > 0) out.other = other;
  return out;
}

export function registerProject(server: McpServer, ctx: ToolContext): void {
  registerTool(server, ctx, {
    name: 'ctx_project',
    title: 'Project profile',
    description,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {},
    run: () => readProfile(ctx),
  });
}
