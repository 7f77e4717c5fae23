import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mulberry32, pick, pickWeighted, zipf } from '../../../src/bench/prng.js';

describe('the benchmarks’ one generator', () => {
  it('gives the same sequence for a seed, in [0, 1)', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const a = mulberry32(seed);
        const b = mulberry32(seed);
        for (let i = 0; i < 200; i++) {
          const x = a();
          expect(b()).toBe(x);
          expect(x >= 0 && x < 1).toBe(true);
        }
      }),
    );
  });

  it('picks only from the list, zipf favours its head, a weighted table returns its values', () => {
    fc.assert(
      fc.property(fc.integer(), fc.array(fc.string(), { minLength: 1, maxLength: 50 }), (seed, xs) => {
        const rand = mulberry32(seed);
        for (let i = 0; i < 50; i++) {
          expect(xs).toContain(pick(rand, xs));
          expect(xs).toContain(zipf(rand, xs));
        }
      }),
    );
    const rand = mulberry32(1);
    const xs = Array.from({ length: 1000 }, (_, i) => i);
    const draws = Array.from({ length: 5000 }, () => zipf(rand, xs));
    expect(draws.filter((x) => x < 10).length).toBeGreaterThan(draws.filter((x) => x >= 500).length);
    const table = [
      ['a', 0.5],
      ['b', 0.5],
    ] as const;
    for (let i = 0; i < 100; i++) expect(['a', 'b']).toContain(pickWeighted(rand, table, 'z'));
  });
});
