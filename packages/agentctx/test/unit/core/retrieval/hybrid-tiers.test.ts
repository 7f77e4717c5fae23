import { describe, expect, it } from 'vitest';
import { tierRank } from '../../../../src/core/retrieval/hybrid.js';

const c = (id: string, keyword: number, coverage: number, cosine: number) => ({
  id,
  keyword,
  coverage,
  cosine,
});

describe('tierRank (hybrid coverage tiers)', () => {
  it('the vector reorders records that match the same share of the query', () => {
    // same coverage: keyword 1 vs 0.9 is a near tie; a clearly closer vector wins
    expect(tierRank([c('a', 1, 0.8, 0.3), c('b', 0.9, 0.8, 0.6)], 3, 0.1)).toEqual(['b', 'a']);
    // with no vector weight the keyword order stands
    expect(tierRank([c('a', 1, 0.8, 0.3), c('b', 0.9, 0.8, 0.6)], 0, 0.1)).toEqual(['a', 'b']);
  });

  it('never lifts a record over one that matches clearly more of the query', () => {
    const out = tierRank([c('low', 1, 0.4, 0.99), c('high', 0.5, 0.9, 0.01)], 3, 0.1);
    expect(out).toEqual(['high', 'low']);
  });

  it('a tier spans tierWidth of coverage from its best record', () => {
    const cands = [c('a', 1, 0.9, 0.1), c('b', 0.8, 0.85, 0.9), c('d', 0.7, 0.75, 0.95)];
    // b is within 0.1 of a (same tier, its vector wins); d starts the next tier
    expect(tierRank(cands, 3, 0.1)).toEqual(['b', 'a', 'd']);
    // width 0: every coverage is its own tier, coverage order
    expect(tierRank(cands, 3, 0)).toEqual(['a', 'b', 'd']);
  });

  it('is deterministic on full ties and empty input', () => {
    expect(tierRank([c('y', 1, 1, 0.5), c('x', 1, 1, 0.5)], 3, 0.1)).toEqual(['x', 'y']);
    expect(tierRank([], 3, 0.1)).toEqual([]);
  });
});
