const nap = new Int32Array(new SharedArrayBuffer(4));

/**
 * How long a writer that works in several transactions lets the store's write lock go between
 * two: the longest sleep of SQLite's busy handler in a waiter's first 178 ms (1, 2, 5, 10, 15,
 * 20, 25 ms), so a process waiting for the lock wakes inside the pause and takes it. Back to
 * back, the next transaction took the lock again within half a millisecond and a waiter could
 * sleep through slice after slice (core/consolidation/slices.ts has the figures).
 */
export const LOCK_PAUSE_MS = 25;

/** Block this thread for `ms` milliseconds (nothing else runs meanwhile; no timers, no I/O). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(nap, 0, 0, ms);
}
