import type { HookContext } from '../context.js';
import type { StopEvent } from '../event.js';
import { foldSessionJournal } from './fold-journal.js';
import type { HookResult } from './index.js';
import { HOOK_LOCK_WAIT_MS } from './lock-wait.js';
import { spawnExtraction } from './spawn.js';

/** Stop: start the extraction of this session in the background and return at once. */
export function stop(ev: StopEvent, ctx: HookContext): HookResult {
  spawnExtraction(ctx, ev);
  // the end of every turn waits for this hook: a long consolidation step only defers the fold
  // (the capture spool is left to the next capture, SessionEnd and consolidate: Stop's bundle
  // stays free of the capture code)
  foldSessionJournal(ctx, HOOK_LOCK_WAIT_MS);
  return null;
}
