import { describe, expect, it } from 'vitest';
import { measureLatency } from '../../../src/bench/latency.js';

describe('bench:retrieval --latency', () => {
  it('builds its synthetic store (handovers included, one current per project) and times search on it', () => {
    const r = measureLatency(300, 3);
    expect(r.records).toBe(300);
    expect(r.promptWords).toBe(55);
    expect(r.medianMs).toBeGreaterThan(0);
    expect(r.p95Ms).toBeGreaterThanOrEqual(r.medianMs);
    expect(r.shortMedianMs).toBeGreaterThan(0);
  });
});
