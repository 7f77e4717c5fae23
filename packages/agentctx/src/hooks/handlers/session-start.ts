import { hookScope } from '../../app/agent-scope.js';
import { recordAgentSeen } from '../../app/agent-seen.js';
import { currentDigest } from '../../core/digest/current-digest.js';
import { updateSessionState } from '../../core/injection/session-state.js';
import { writerSql } from '../../database/writer-filter.js';
import { estimateTokens } from '../../shared/tokens.js';
import type { ContextRecord } from '../../shared/types.js';
import type { HookContext } from '../context.js';
import type { SessionStartEvent } from '../event.js';
import { recordInjectedTokens } from './accounting.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';
import { withTeamNotice } from './team-notice.js';

/** CONTRACTS.md §hook-session-start, §budgets: the SessionStart injection budget. */
export const SESSION_START_TOKENS = 1500;
const SESSION_START_CHARS = 8000;

/**
 * What SessionStart counts a text as: the conservative estimate of what the tokenizer sees,
 * which is the text in Unicode NFKC form (one character such as U+FDFA becomes eighteen).
 * Always measured here: a count stored beside a file is a claim, not a measurement.
 */
function sessionTokens(text: string): number {
  return estimateTokens(text.normalize('NFKC'));
}

/** Whole lines from the top that fit both budgets, by their own measure, and that measure. */
function fitSessionText(text: string): { text: string; tokens: number } {
  const all = text.replace(/\r\n/g, '\n').trimEnd();
  const whole = all.length <= SESSION_START_CHARS ? sessionTokens(all) : Number.POSITIVE_INFINITY;
  if (whole <= SESSION_START_TOKENS) return { text: all, tokens: whole };
  const lines: string[] = [];
  let used = 2;
  let chars = 0;
  for (const line of all.split('\n')) {
    const cost = sessionTokens(line) + 1;
    if (used + cost > SESSION_START_TOKENS || chars + line.length + 1 > SESSION_START_CHARS) break;
    lines.push(line);
    used += cost;
    chars += line.length + 1;
  }
  // the sum of the lines' estimates is close to the whole's; the whole decides
  while (lines.length > 0) {
    const out = lines.join('\n').trimEnd();
    const tokens = out.length <= SESSION_START_CHARS ? sessionTokens(out) : Number.POSITIVE_INFINITY;
    if (tokens <= SESSION_START_TOKENS) return { text: out, tokens };
    lines.pop();
  }
  return { text: '', tokens: 0 };
}

/**
 * The digest ids still shown after truncation. When the text names its ids, those cut off
 * are dropped (the prompt hook may still bring them); otherwise all of them count as shown.
 */
function shownIds(ids: readonly string[], full: string, shown: string): string[] {
  return ids.filter((id) => !full.includes(id) || shown.includes(id));
}

function profileBlock(records: ContextRecord[], projectName: string): string {
  const lines = [`agentctx: project ${projectName} (profile; the full digest is being prepared).`];
  for (const r of records) lines.push(`- ${r.title}: ${r.body.replace(/\s*\n\s*/g, '; ')}`);
  return lines.join('\n');
}

/**
 * SessionStart: the pre-computed digest, as is, unless a record was retired since it was
 * written (then recomposed from the store: core/digest/current-digest.ts). Without one, the
 * project's current profile records and a background `agentctx consolidate` to write it.
 */
function digestAtStart(ev: SessionStartEvent, ctx: HookContext): HookResult {
  const project = ctx.project();
  // after /clear or compaction earlier injections are gone from the context: start over
  const reset = ev.source === 'clear' || ev.source === 'compact';
  // the digest on disk, or recomposed from the store when a record was retired since (CONTRACTS.md
  // §inv-3)
  const store = () => (ctx.hasStore() ? ctx.db() : null);
  // an isolated agent's digest is its own records' (app/agent-scope.ts), composed each time
  const scope = hookScope(ctx.paths.config, ctx.agent);
  const digest = currentDigest({
    dir: ctx.paths.digests,
    dbPath: ctx.paths.db,
    project,
    now: ctx.clock(),
    store,
    ...scope,
  });
  // nothing of its own yet: the profile fallback below would show others' records
  if (scope.own) {
    if (!digest?.text.trim()) return null;
  }
  if (digest?.text.trim()) {
    // Measured whatever the side file claims (CONTRACTS.md §inv-2); over either budget, cut to fit.
    const { text, tokens } = fitSessionText(digest.text);
    if (!text) return null;
    const ids = shownIds(digest.ids, digest.text, text);
    if (ctx.statePath) {
      ctx.state = updateSessionState(ctx.statePath, { resetIds: reset, addIds: ids }, ctx.clock(), ctx.state);
    }
    recordInjectedTokens(ctx, ev.sessionId, project.id, tokens, { ids, via: 'digest' });
    return { additionalContext: text };
  }

  spawnBackground(ctx, ['consolidate', '--cwd', project.root]);
  if (!ctx.hasStore()) return null;
  const db = ctx.db();
  const w = writerSql(scope.writers);
  const records = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND superseded_at IS NULL${w.sql}
       ORDER BY pinned DESC, recorded_at DESC LIMIT 30`,
    )
    .all(project.id, ...w.args) as ContextRecord[];
  if (records.length === 0) return null;
  const { text, tokens } = fitSessionText(profileBlock(records, project.name));
  if (!text.includes('\n')) return null; // only the header fitted
  const ids = records.filter((r) => text.includes(`- ${r.title}:`)).map((r) => r.id);
  if (ctx.statePath)
    ctx.state = updateSessionState(ctx.statePath, { resetIds: reset, addIds: ids }, ctx.clock(), ctx.state);
  recordInjectedTokens(ctx, ev.sessionId, project.id, tokens, { ids, via: 'digest' });
  return { additionalContext: text };
}

/** SessionStart: the digest, and a line when the team file changed since the last export/import. */
const digestWithNotice = withTeamNotice(digestAtStart, SESSION_START_TOKENS);

/** ...and the agent's last session noted for `status` and `doctor` (one small file; never fails the hook). */
export function sessionStart(ev: SessionStartEvent, ctx: HookContext): HookResult {
  if (ev.sessionId) {
    try {
      recordAgentSeen(ctx.paths, ctx.agent, {
        session_id: ev.sessionId,
        cwd: ctx.cwd,
        at: ctx.clock().toISOString(),
      });
    } catch {
      // only status's "last session seen"
    }
  }
  return digestWithNotice(ev, ctx);
}
