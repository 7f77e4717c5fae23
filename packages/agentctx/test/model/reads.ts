import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { getTokenizer } from '@anthropic-ai/tokenizer';
import { expectThat, type Property } from './config.js';
import { Model } from './model.js';
import { TOPICS } from './text.js';
import { loadRows, type Row } from './truth.js';
import { idsIn, Visibility } from './truth-sets.js';
import type { ProjectKey, Run, World } from './world.js';

/**
 * The read-path checks run after every step, in both projects: every default read path's
 * output is scanned for stale and foreign records (by id and by marker word), the budgets are
 * measured with the real tokenizer, and the listings are compared with the model.
 */

let tokenizer: ReturnType<typeof getTokenizer> | null = null;
/** Tokens as Claude counts them (the tokenizer package's own rule: NFKC, then BPE). */
export function realTokens(text: string): number {
  tokenizer ??= getTokenizer();
  return tokenizer.encode(text.normalize('NFKC'), 'all').length;
}
export function freeTokenizer(): void {
  tokenizer?.free();
  tokenizer = null;
}

export const SEARCH_QUERY = TOPICS.join(' ');
export const SESSION_START_TOKENS = 1500;
export const PROMPT_TOKENS = 2000;
export const CONTEXT_CHARS = 8000;

/** Parse one hook's output; a hook that broke the rules is a `hooks-safe` violation. */
export function hookContext(r: Run, what: string): string {
  expectThat('hooks-safe', r.code === 0, () => `${what} exited ${r.code}: ${r.stderr.slice(0, 300)}`);
  if (r.stdout.trim() === '') return '';
  let v: unknown;
  try {
    v = JSON.parse(r.stdout);
  } catch {
    v = undefined;
  }
  const ok = typeof v === 'object' && v !== null && !Array.isArray(v);
  expectThat(
    'hooks-safe',
    ok,
    () => `${what} printed something that is not one JSON object: ${r.stdout.slice(0, 200)}`,
  );
  if (!ok) return '';
  const ctx = (v as { hookSpecificOutput?: { additionalContext?: unknown } }).hookSpecificOutput
    ?.additionalContext;
  return typeof ctx === 'string' ? ctx : '';
}

/** Scan one default read path's output for stale and foreign records. */
function scanOutput(vis: Visibility, path: string, text: string, stale: Property, ids?: string[]): void {
  const found = vis.scan(text, ids);
  expectThat(
    stale,
    found.stale.length === 0,
    () => `${path} in project ${vis.p} shows ${found.stale.join('; ')}`,
  );
  expectThat(
    'namespace-reads',
    found.foreign.length === 0,
    () => `${path} in project ${vis.p} shows ${found.foreign.join('; ')}`,
  );
}

export function checkSessionStartText(vis: Visibility, text: string, path: string): void {
  scanOutput(vis, path, text, 'session-start-current');
  const tokens = text ? realTokens(text) : 0;
  expectThat(
    'budget-session-start',
    tokens <= SESSION_START_TOKENS && text.length <= CONTEXT_CHARS,
    () => `${path} in project ${vis.p} injected ${tokens} tokens / ${text.length} characters`,
  );
}

export function checkPromptText(vis: Visibility, text: string, path: string): void {
  scanOutput(vis, path, text, 'superseded-hidden');
  const tokens = text ? realTokens(text) : 0;
  const shown = (text.match(/, id [0-9A-Z]{26}\]/g) ?? []).length;
  expectThat(
    'budget-prompt',
    tokens <= PROMPT_TOKENS && text.length <= CONTEXT_CHARS && shown <= 3,
    () =>
      `${path} in project ${vis.p} injected ${tokens} tokens / ${text.length} characters / ${shown} records`,
  );
}

let checkSessions = 0;

/** A prompt that should bring records back: a visible record's title (superseded ones too). */
function promptFor(model: Model, p: ProjectKey, turn: number): string {
  const pool = model.visible(p).sort((a, b) => (a.id < b.id ? -1 : 1));
  const r = Model.pick(pool, turn);
  return r ? r.title : `How do the ${TOPICS.slice(0, 3).join(', ')} services work together?`;
}

/** Every default read path of project `p`, checked against the store and the model. */
export async function checkReadPaths(world: World, model: Model, p: ProjectKey, turn: number): Promise<void> {
  const rows = loadRows(world);
  const vis = new Visibility(world, rows, model, p);
  const step = `after step ${turn}`;

  // CLI: search (index) and export (every current record, never truncated)
  const search = await world.cliJson(p, ['search', SEARCH_QUERY, '--limit', '50']);
  expectThat('model-agreement', search.code === 0, () => `search failed: ${search.stderr}`);
  const results = ((search.json as { results?: { id: string; superseded?: boolean }[] })?.results ?? []).map(
    (r) => r.id,
  );
  scanOutput(vis, 'agentctx search', search.stdout, 'superseded-hidden', results);
  const exp = await world.cliJson(p, ['export']);
  const md = String((exp.json as { markdown?: unknown })?.markdown ?? '');
  scanOutput(vis, 'agentctx export', md, 'superseded-hidden');
  const exported = new Set(idsIn(md).filter((id) => !md.includes(`by ${id}`)));
  const missing = [...vis.current].filter((id) => !exported.has(id));
  expectThat(
    'model-agreement',
    missing.length === 0,
    () =>
      `${step}: agentctx export in project ${p} leaves out current ${missing.map((id) => vis.describe(id)).join('; ')}`,
  );

  // MCP: ctx_search, ctx_get of every id the test knows, ctx_related of the known files
  const mcp = await world.mcp(p);
  const cs = await mcp.call('ctx_search', { query: SEARCH_QUERY, limit: 15 });
  const csIds = ((cs.json.results as { id: string }[] | undefined) ?? []).map((r) => r.id);
  scanOutput(vis, 'ctx_search', cs.text, 'superseded-hidden', csIds);
  const everyId = [...new Set([...model.all().map((r) => r.id), ...rows.map((r) => r.id)])].sort();
  for (let i = 0; i < everyId.length; i += 10) await checkGet(vis, mcp, everyId.slice(i, i + 10), p);
  for (const file of [...model.files[p]].slice(0, 3)) {
    const rel = await mcp.call('ctx_related', { file, limit: 15 });
    const ids = ((rel.json.results as { id: string }[] | undefined) ?? []).map((r) => r.id);
    scanOutput(vis, `ctx_related(${file})`, rel.text, 'superseded-hidden', ids);
  }

  // hooks: a new session's SessionStart, and a prompt that names a record
  const sid = `check-${p.toLowerCase()}-${++checkSessions}`;
  const ss = await world.hook(p, 'session-start', {
    session_id: sid,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  checkSessionStartText(vis, hookContext(ss, 'hook session-start'), 'SessionStart');
  const prompt = promptFor(model, p, turn);
  const up = await world.hook(p, 'user-prompt-submit', {
    session_id: sid,
    hook_event_name: 'UserPromptSubmit',
    prompt,
  });
  checkPromptText(
    vis,
    hookContext(up, 'hook user-prompt-submit'),
    `prompt injection for "${prompt.slice(0, 60)}"`,
  );
  rmSync(join(world.tmp, `agentctx-${sid}.json`), { force: true });

  // the dashboard's API: the records list and its search, for this project
  const pid = world.projectId[p];
  for (const path of [
    `/records?project=${pid}&limit=500`,
    `/records?project=${pid}&q=${encodeURIComponent(SEARCH_QUERY)}`,
  ]) {
    const res = await world.uiCall('GET', path);
    const recs = ((res.json as { records?: Row[] })?.records ?? []) as Row[];
    const text = recs.map((r) => `${r.title}\n${r.body}`).join('\n');
    scanOutput(
      vis,
      `dashboard GET ${path.split('?')[0]}`,
      text,
      'superseded-hidden',
      recs.map((r) => r.id),
    );
  }
}

async function checkGet(
  vis: Visibility,
  mcp: Awaited<ReturnType<World['mcp']>>,
  ids: string[],
  p: ProjectKey,
): Promise<void> {
  const res = await mcp.call('ctx_get', { ids });
  const records = (res.json.records as { id: string; title: string; body: string }[] | undefined) ?? [];
  const text = records.map((r) => `${r.title}\n${r.body}`).join('\n');
  scanOutput(
    vis,
    'ctx_get records',
    text,
    'superseded-hidden',
    records.map((r) => r.id),
  );
  const heads = (res.json.superseded as { id: string; current_head: string | null }[] | undefined) ?? [];
  for (const h of heads) {
    if (h.current_head && vis.foreign.has(h.current_head))
      expectThat(
        'namespace-reads',
        false,
        () => `ctx_get in project ${p} names ${vis.describe(h.current_head!)} as the current head of ${h.id}`,
      );
  }
  const got = new Set(records.map((r) => r.id));
  const lost = ids.filter((id) => vis.current.has(id) && !got.has(id));
  expectThat(
    'model-agreement',
    lost.length === 0,
    () => `ctx_get in project ${p} does not return current ${lost.map((id) => vis.describe(id)).join('; ')}`,
  );
}
