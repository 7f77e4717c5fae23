import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../../src/cli/registry.js';
import { editDistance, nearest } from '../../../src/cli/suggest.js';

const word = fc.string({ unit: fc.constantFrom(...'abcdefgh-'), maxLength: 12 });

describe('editDistance', () => {
  it('is a metric: zero only for equal strings, symmetric, and obeys the triangle inequality', () => {
    fc.assert(
      fc.property(word, word, word, (a, b, c) => {
        expect(editDistance(a, b) === 0).toBe(a === b);
        expect(editDistance(a, b)).toBe(editDistance(b, a));
        expect(editDistance(a, c)).toBeLessThanOrEqual(editDistance(a, b) + editDistance(b, c));
        expect(editDistance(a, b)).toBeLessThanOrEqual(Math.max(a.length, b.length));
        expect(editDistance(a, b)).toBeGreaterThanOrEqual(Math.abs(a.length - b.length));
      }),
      { seed: 2121, numRuns: 300 },
    );
  });

  it('counts one edit for one insertion, deletion or substitution', () => {
    expect(editDistance('search', 'serch')).toBe(1);
    expect(editDistance('search', 'searchh')).toBe(1);
    expect(editDistance('search', 'seerch')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});

describe('nearest', () => {
  const names = Object.keys(COMMANDS);

  it('finds every command again after any single edit of a name of five letters or more', () => {
    const long = names.filter((n) => n.length >= 5);
    fc.assert(
      fc.property(
        fc.constantFrom(...long),
        fc.nat(),
        fc.constantFrom('insert', 'delete', 'substitute'),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
        (name, at, op, ch) => {
          const i = at % name.length;
          const typo =
            op === 'insert'
              ? name.slice(0, i) + ch + name.slice(i)
              : op === 'delete'
                ? name.slice(0, i) + name.slice(i + 1)
                : name.slice(0, i) + ch + name.slice(i + 1);
          if (typo === name) return;
          expect(nearest(typo, names)).toContain(name);
        },
      ),
      { seed: 77, numRuns: 300 },
    );
  });

  it('suggests nothing for a word far from every name, and at most three names', () => {
    expect(nearest('xylophone', names)).toEqual([]);
    fc.assert(
      fc.property(word, (w) => {
        expect(nearest(w, names).length).toBeLessThanOrEqual(3);
      }),
      { seed: 5, numRuns: 200 },
    );
  });
});
