import type { Db } from '../../database/open.js';
import { LOCK_PAUSE_MS, sleepSync } from '../../shared/sleep.js';

/**
 * Planned writes, committed in short slices: each slice is its own IMMEDIATE transaction and
 * ends after `maxMs` of writing or `cap` items, whichever comes first, so a consolidation never
 * holds the store's write lock long enough to keep a hook waiting (issue 20: at 100,000 records
 * one 2,000-row score batch held it ~150 ms). Bounded by time rather than a count alone, a slice
 * stays short on a loaded machine too. Every write must be idempotent (set a planned value):
 * a run killed between two slices leaves some written, and the next run's plan, computed from
 * what was committed, writes the rest.
 *
 * Between two slices the lock is let go for SLICE_PAUSE_MS. Back to back, the next slice took it
 * again within half a millisecond, while a process waiting for it sleeps in SQLite's busy
 * handler (1, 2, 5, 10, 15, 20, 25, 25, 25, 50… ms) and wakes, by chance, inside slice after
 * slice: with nothing else running, a probe waited 54–79 ms across 2–8 slices of 15–20 ms.
 * A pause as long as the handler's sleeps in its first 178 ms is one such a waiter cannot sleep
 * through: it wakes inside the pause and takes the lock.
 */

const SLICE_MS = 15;
const SLICE_CAP = 2000;
export const SLICE_PAUSE_MS = LOCK_PAUSE_MS;

export interface SliceOptions {
  maxMs?: number;
  cap?: number;
  /** Monotonic milliseconds (injected for tests). */
  now?: () => number;
  /** The lock-free pause between two slices, ms. */
  pauseMs?: number;
  /** Blocks for the pause (injected for tests). */
  sleep?: (ms: number) => void;
}

export function writeInSlices<T>(
  db: Db,
  items: readonly T[],
  write: (item: T) => void,
  afterSlice: (done: number) => void,
  opts: SliceOptions = {},
): number {
  const maxMs = opts.maxMs ?? SLICE_MS;
  const cap = Math.max(1, opts.cap ?? SLICE_CAP);
  const now = opts.now ?? (() => performance.now());
  const pauseMs = opts.pauseMs ?? SLICE_PAUSE_MS;
  const sleep = opts.sleep ?? sleepSync;
  let done = 0;
  let slices = 0;
  while (done < items.length) {
    if (slices > 0) sleep(pauseMs);
    let i = done;
    db.transaction(() => {
      const t0 = now();
      do {
        write(items[i] as T);
        i++;
      } while (i < items.length && i - done < cap && now() - t0 < maxMs);
    }).immediate();
    done = i;
    slices++;
    afterSlice(done);
  }
  return slices;
}
