import type { HookContext } from '../context.js';
import type { StopEvent } from '../event.js';
import { flushPendingTokens } from './accounting.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';

/**
 * How long Stop waits for the store's write lock to account the turn's tokens: the end of
 * every turn waits for this hook, so a long consolidation step only defers the write.
 */
const STOP_LOCK_WAIT_MS = 250;

/** Stop: start the extraction of this session in the background and return at once. */
export function stop(ev: StopEvent, ctx: HookContext): HookResult {
  if (ev.sessionId && ev.transcriptPath) {
    spawnBackground(ctx, ['extract', '--session-id', ev.sessionId, '--transcript', ev.transcriptPath]);
  }
  if ((ctx.state.pendingTokens ?? 0) > 0 && ctx.hasStore())
    flushPendingTokens(ctx, ev.sessionId, STOP_LOCK_WAIT_MS);
  return null;
}
