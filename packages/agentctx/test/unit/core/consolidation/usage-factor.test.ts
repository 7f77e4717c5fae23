import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeScore,
  USAGE_BOUNDS,
  USAGE_MIN_SHOWN,
  usageFactor,
} from '../../../../src/core/consolidation/scores.js';

describe('the usage factor of the derived score', () => {
  it('is bounded, 1 without evidence, falls with showings never used and rises with use', () => {
    fc.assert(
      fc.property(fc.nat(500), fc.nat(500), fc.nat(20), (shown, usedRaw, contradicted) => {
        const used = Math.min(usedRaw, shown);
        const f = usageFactor(shown, used, contradicted);
        expect(f).toBeGreaterThanOrEqual(USAGE_BOUNDS.min);
        expect(f).toBeLessThanOrEqual(USAGE_BOUNDS.max);
        if (shown + contradicted < USAGE_MIN_SHOWN) expect(f).toBe(1);
        // one more use never lowers it; one more unused showing never raises it
        if (used < shown) expect(usageFactor(shown, used + 1, contradicted)).toBeGreaterThanOrEqual(f);
        expect(usageFactor(shown + 1, used, contradicted)).toBeLessThanOrEqual(Math.max(f, 1));
      }),
      { seed: 4242, numRuns: 300 },
    );
    expect(usageFactor(20, 0)).toBeLessThan(0.8);
    expect(usageFactor(20, 18)).toBe(USAGE_BOUNDS.max);
    expect(USAGE_BOUNDS.max).toBeGreaterThan(1);
  });

  it('moves a decision (which never decays) only once it has usage evidence', () => {
    const base = {
      id: 'r',
      type: 'decision' as const,
      pinned: 0,
      confidence: 'explicit' as const,
      valid_from: '2026-01-01T00:00:00Z',
      access_count: 0,
      last_accessed: null,
      score: 1,
    };
    const now = new Date('2026-12-01T00:00:00Z');
    expect(computeScore(base, now)).toBeNull();
    expect(computeScore({ ...base, shown_count: 2, used_count: 0 }, now)).toBeNull();
    expect(computeScore({ ...base, shown_count: 12, used_count: 0 }, now)).toBeLessThan(0.9);
    expect(computeScore({ ...base, shown_count: 12, used_count: 11 }, now)).toBeGreaterThan(1.05);
    const bug = { ...base, type: 'bugfix' as const };
    expect(computeScore({ ...bug, shown_count: 12, used_count: 0 }, now)!).toBeLessThan(
      computeScore(bug, now)!,
    );
  });
});
