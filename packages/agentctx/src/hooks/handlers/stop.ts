import type { HookContext } from '../context.js';
import type { StopEvent } from '../event.js';
import { flushPendingTokens } from './accounting.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';

/** Stop: start the extraction of this session in the background and return at once. */
export function stop(ev: StopEvent, ctx: HookContext): HookResult {
  if (ev.sessionId && ev.transcriptPath) {
    spawnBackground(ctx, ['extract', '--session-id', ev.sessionId, '--transcript', ev.transcriptPath]);
  }
  if ((ctx.state.pendingTokens ?? 0) > 0 && ctx.hasStore()) flushPendingTokens(ctx, ev.sessionId);
  return null;
}
