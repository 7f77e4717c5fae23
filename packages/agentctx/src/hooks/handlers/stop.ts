import type { HookContext } from '../context.js';
import type { StopEvent } from '../event.js';
import { foldSessionJournal } from './fold-journal.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';

/**
 * How long Stop waits for the store's write lock to fold the turn's journal lines: the end of
 * every turn waits for this hook, so a long consolidation step only defers the fold.
 */
const STOP_LOCK_WAIT_MS = 250;

/** Stop: start the extraction of this session in the background and return at once. */
export function stop(ev: StopEvent, ctx: HookContext): HookResult {
  if (ev.sessionId && ev.transcriptPath) {
    spawnBackground(ctx, ['extract', '--session-id', ev.sessionId, '--transcript', ev.transcriptPath]);
  }
  foldSessionJournal(ctx, STOP_LOCK_WAIT_MS);
  return null;
}
