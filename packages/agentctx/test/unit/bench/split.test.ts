import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { BenchDataset } from '../../../src/bench/dataset.js';
import { selectSplit, splitOf } from '../../../src/bench/split.js';

const dataset = (projects: string[], ids: string[]): BenchDataset => ({
  name: 't',
  records: [],
  queries: ids.map((id, i) => ({
    id,
    project: projects[i % projects.length] ?? 'p',
    query: 'q',
    relevant: [],
    category: 'c',
  })),
});

describe('benchmark splits', () => {
  it('partition the queries: tune ∪ validate = all, disjoint, and stable', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 8 }),
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 60 }),
        (projects, ids) => {
          const d = dataset(projects, ids);
          const tune = selectSplit(d, 'tune').queries.map((q) => q.id);
          const validate = selectSplit(d, 'validate').queries.map((q) => q.id);
          expect([...tune, ...validate].sort()).toEqual([...ids].sort());
          expect(tune.filter((id) => validate.includes(id))).toEqual([]);
          expect(selectSplit(d, 'tune').queries.map((q) => q.id)).toEqual(tune);
        },
      ),
      { seed: 19, numRuns: 200 },
    );
  });

  it('splits five conversations 3 / 2 by project, and three projects by query', () => {
    const five = dataset(['c1', 'c2', 'c3', 'c4', 'c5'], ['a', 'b', 'c', 'd', 'e']);
    expect(five.queries.map((q) => splitOf(five, q))).toEqual([
      'tune',
      'tune',
      'tune',
      'validate',
      'validate',
    ]);
    const three = dataset(
      ['x', 'y', 'z'],
      Array.from({ length: 200 }, (_, i) => `q${i}`),
    );
    const tune = selectSplit(three, 'tune').queries.length;
    expect(tune).toBeGreaterThan(70);
    expect(tune).toBeLessThan(130);
  });
});
