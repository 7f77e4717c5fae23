import type { Db } from '../../storage/open.js';

/**
 * Planned writes, committed in short slices: each slice is its own IMMEDIATE transaction and
 * ends after `maxMs` of writing or `cap` items, whichever comes first, so a consolidation never
 * holds the store's write lock long enough to keep a hook waiting (issue 20: at 100,000 records
 * one 2,000-row score batch held it ~150 ms). Bounded by time rather than a count alone, a slice
 * stays short on a loaded machine too. Every write must be idempotent (set a planned value):
 * a run killed between two slices leaves some written, and the next run's plan, computed from
 * what was committed, writes the rest.
 */

export const SLICE_MS = 15;
export const SLICE_CAP = 2000;

export interface SliceOptions {
  maxMs?: number;
  cap?: number;
  /** Monotonic milliseconds (injected for tests). */
  now?: () => number;
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
  let done = 0;
  let slices = 0;
  while (done < items.length) {
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
