import type { HookContext } from '../context.js';
import type { StopEvent } from '../event.js';
import { foldSessionJournal } from './fold-journal.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';
import { drainSpool, HOOK_LOCK_WAIT_MS } from './spool.js';

/** Stop: start the extraction of this session in the background and return at once. */
export function stop(ev: StopEvent, ctx: HookContext): HookResult {
  if (ev.sessionId && ev.transcriptPath) {
    spawnBackground(ctx, ['extract', '--session-id', ev.sessionId, '--transcript', ev.transcriptPath]);
  }
  // the end of every turn waits for this hook: a long consolidation step only defers the fold
  foldSessionJournal(ctx, HOOK_LOCK_WAIT_MS);
  drainSpool(ctx);
  return null;
}
