import { updateSessionState } from '../../core/session-state.js';
import { addInjectedTokens } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';

/** The session id injections are counted under when a payload has none. */
export function accountingSession(sessionId: string): string {
  return sessionId || 'unknown';
}

/**
 * Self-accounting (SPEC §9). SessionStart stays off the database, so its tokens wait in the
 * session file; the next hook that opens the store writes them to `sessions.tokens_injected`.
 */
export function flushPendingTokens(ctx: HookContext, sessionId: string): void {
  const pending = ctx.state.pendingTokens ?? 0;
  if (pending <= 0 || !ctx.statePath) return;
  addInjectedTokens(
    ctx.db(),
    accountingSession(sessionId),
    ctx.project().id,
    pending,
    ctx.clock().toISOString(),
  );
  ctx.state = updateSessionState(ctx.statePath, { clearPendingTokens: true }, ctx.clock());
}
