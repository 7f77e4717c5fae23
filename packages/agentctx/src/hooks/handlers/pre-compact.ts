import type { HookContext } from '../context.js';
import type { PreCompactEvent } from '../event.js';
import type { HookResult } from './index.js';
import { spawnExtraction } from './spawn.js';

/**
 * PreCompact: snapshot the working state before compaction. The transcript on disk still
 * holds everything, so a background `extract --precompact` writes an inferred handover
 * candidate from it (one that never supersedes an explicit handover) without delaying the
 * compaction.
 */
export function preCompact(ev: PreCompactEvent, ctx: HookContext): HookResult {
  spawnExtraction(ctx, ev, ['--precompact']);
  return null;
}
