const nap = new Int32Array(new SharedArrayBuffer(4));

/** Block this thread for `ms` milliseconds (nothing else runs meanwhile; no timers, no I/O). */
export function sleepSync(ms: number): void {
  if (ms > 0) Atomics.wait(nap, 0, 0, ms);
}
