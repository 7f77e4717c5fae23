import { updateSessionState } from '../../core/injection/session-state.js';
import { addInjectedTokens } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';

/** The session id injections are counted under when a payload has none. */
export function accountingSession(sessionId: string): string {
  return sessionId || 'unknown';
}

/**
 * Self-accounting (SPEC §9). SessionStart and UserPromptSubmit stay off the database (no
 * write lock on the session's critical path), so their tokens wait in the session file; Stop,
 * at the end of every turn, and SessionEnd write them to `sessions.tokens_injected`.
 */
export function flushPendingTokens(ctx: HookContext, sessionId: string, lockWaitMs?: number): void {
  const pending = ctx.state.pendingTokens ?? 0;
  if (pending <= 0 || !ctx.statePath) return;
  const db = ctx.db();
  if (lockWaitMs !== undefined) db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(lockWaitMs))}`);
  try {
    addInjectedTokens(db, accountingSession(sessionId), ctx.project().id, pending, ctx.clock().toISOString());
  } catch (err) {
    // another process holds the write lock (a consolidation step): the next flush writes them
    if (String((err as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY')) return;
    throw err;
  }
  // subtract what was written rather than zero it: tokens a racing hook added stay pending
  ctx.state = updateSessionState(ctx.statePath, { addPendingTokens: -pending }, ctx.clock());
}
