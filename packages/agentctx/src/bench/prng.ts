// The one seeded generator of the benchmarks: every synthetic store, query list and secret is
// drawn from it, so a seed gives the same figures' inputs on every machine and every run.

/** A draw in [0, 1). */
export type Rand = () => number;

/** mulberry32: 32-bit integer arithmetic, exact in doubles, the same sequence for a seed. */
export function mulberry32(seed: number): Rand {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One element of `xs`, uniformly. */
export function pick<T>(rand: Rand, xs: readonly T[]): T {
  const x = xs[Math.floor(rand() * xs.length)];
  if (x === undefined) throw new Error('pick from an empty list');
  return x;
}

/**
 * One element of `xs`, skewed to the front: index ⌊n^u⌋ − 1 for uniform u, so the first few are
 * everywhere and most are rare, as words are in real notes (roughly Zipf's law).
 */
export function zipf<T>(rand: Rand, xs: readonly T[]): T {
  const x = xs[Math.min(xs.length - 1, Math.floor(xs.length ** rand()) - 1)];
  if (x === undefined) throw new Error('zipf from an empty list');
  return x;
}

/** One entry of a weighted table [[value, weight], …] (weights summing to about 1). */
export function pickWeighted<T>(rand: Rand, table: readonly (readonly [T, number])[], otherwise: T): T {
  let x = rand();
  for (const [v, w] of table) {
    x -= w;
    if (x <= 0) return v;
  }
  return otherwise;
}
