import { describe, expect, it } from 'vitest';
import { sleepSync } from '../../../src/shared/sleep.js';

describe('sleepSync', () => {
  it('blocks the thread for the time asked, and returns at once for none', () => {
    for (const ms of [5, 20]) {
      const t0 = performance.now();
      sleepSync(ms);
      const took = performance.now() - t0;
      expect(took).toBeGreaterThanOrEqual(ms - 1);
      expect(took).toBeLessThan(ms + 200);
    }
    const t0 = performance.now();
    sleepSync(0);
    sleepSync(-3);
    expect(performance.now() - t0).toBeLessThan(5);
  });
});
