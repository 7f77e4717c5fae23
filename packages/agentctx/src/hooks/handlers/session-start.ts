import { currentDigest } from '../../core/digest/current-digest.js';
import { updateSessionState } from '../../core/injection/session-state.js';
import { estimateTokens, truncateLinesToBudget } from '../../shared/tokens.js';
import type { ContextRecord } from '../../shared/types.js';
import { addInjectedTokens } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';
import type { SessionStartEvent } from '../event.js';
import { accountingSession } from './accounting.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';

/** SPEC §4 / §9: the SessionStart injection budget. */
export const SESSION_START_TOKENS = 1500;
export const SESSION_START_CHARS = 8000;

/** Whole lines from the top that fit both budgets. */
export function fitSessionText(text: string): string {
  let out = truncateLinesToBudget(text.replace(/\r\n/g, '\n').trimEnd(), SESSION_START_TOKENS - 2);
  while (out.length > SESSION_START_CHARS || estimateTokens(out) > SESSION_START_TOKENS) {
    const cut = out.lastIndexOf('\n');
    if (cut <= 0) return '';
    out = out.slice(0, cut);
  }
  return out.trimEnd();
}

/**
 * The digest ids still shown after truncation. When the text names its ids, those cut off
 * are dropped (the prompt hook may still bring them); otherwise all of them count as shown.
 */
export function shownIds(ids: readonly string[], full: string, shown: string): string[] {
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
export function sessionStart(ev: SessionStartEvent, ctx: HookContext): HookResult {
  const project = ctx.project();
  // after /clear or compaction earlier injections are gone from the context: start over
  const reset = ev.source === 'clear' || ev.source === 'compact';
  // the digest on disk, or recomposed from the store when a record was retired since (Invariant 3)
  const store = () => (ctx.hasStore() ? ctx.db() : null);
  const digest = currentDigest({
    dir: ctx.paths.digests,
    dbPath: ctx.paths.db,
    project,
    now: ctx.clock(),
    store,
  });
  if (digest?.text.trim()) {
    // The digest's own estimate (same estimator, written with it) spares re-counting it here;
    // a file without one, or over either budget, is cut to fit.
    const trusted =
      digest.tokens > 0 && digest.tokens <= SESSION_START_TOKENS && digest.text.length <= SESSION_START_CHARS;
    const text = trusted ? digest.text.replace(/\r\n/g, '\n').trimEnd() : fitSessionText(digest.text);
    if (!text) return null;
    const tokens = trusted ? digest.tokens : estimateTokens(text);
    if (ctx.statePath) {
      ctx.state = updateSessionState(
        ctx.statePath,
        { resetIds: reset, addIds: shownIds(digest.ids, digest.text, text), addPendingTokens: tokens },
        ctx.clock(),
      );
    }
    return { additionalContext: text };
  }

  spawnBackground(ctx, ['consolidate', '--cwd', project.root]);
  if (!ctx.hasStore()) return null;
  const db = ctx.db();
  const records = db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND type = 'profile' AND superseded_at IS NULL
       ORDER BY pinned DESC, recorded_at DESC LIMIT 30`,
    )
    .all(project.id) as ContextRecord[];
  if (records.length === 0) return null;
  const text = fitSessionText(profileBlock(records, project.name));
  if (!text.includes('\n')) return null; // only the header fitted
  const ids = records.filter((r) => text.includes(`- ${r.title}:`)).map((r) => r.id);
  const tokens = estimateTokens(text);
  const now = ctx.clock();
  if (ctx.statePath) ctx.state = updateSessionState(ctx.statePath, { resetIds: reset, addIds: ids }, now);
  addInjectedTokens(db, accountingSession(ev.sessionId), project.id, tokens, now.toISOString());
  return { additionalContext: text };
}
