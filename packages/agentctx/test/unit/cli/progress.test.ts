import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createProgress, formatEta, progressLine } from '../../../src/cli/progress.js';

describe('progressLine', () => {
  it('shows the share done and, after a second, the time left at the rate so far', () => {
    expect(progressLine('embeddings', 0, 200, 0)).toBe('embeddings [....................]   0% 0/200');
    // a quarter in 10 s: 30 s to go
    expect(progressLine('embeddings', 50, 200, 10_000)).toBe(
      'embeddings [#####...............]  25% 50/200 ETA 0:30',
    );
    expect(progressLine('embeddings', 200, 200, 10_000)).toBe(
      'embeddings [####################] 100% 200/200',
    );
    expect(progressLine('x', 1, 2, 500)).not.toContain('ETA'); // too early to tell
  });

  it('keeps the bar 20 wide and the share between 0% and 100%, whatever it is given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -5, max: 500 }),
        fc.integer({ min: 0, max: 400 }),
        fc.nat(100_000),
        (d, t, ms) => {
          const line = progressLine('l', d, t, ms);
          const bar = /\[([#.]+)\]/.exec(line)?.[1] ?? '';
          expect(bar).toHaveLength(20);
          const pct = Number(/(\d+)%/.exec(line)?.[1]);
          expect(pct).toBeGreaterThanOrEqual(0);
          expect(pct).toBeLessThanOrEqual(100);
        },
      ),
      { seed: 11, numRuns: 300 },
    );
  });

  it('formats an ETA as m:ss or h:mm:ss', () => {
    expect(formatEta(5)).toBe('0:05');
    expect(formatEta(75)).toBe('1:15');
    expect(formatEta(3725)).toBe('1:02:05');
  });
});

describe('createProgress', () => {
  it('writes nothing when disabled (piped, --json)', () => {
    const out: string[] = [];
    const p = createProgress({ write: (s) => out.push(s), enabled: false });
    p.update('a', 1, 2);
    p.end();
    expect(out).toEqual([]);
  });

  it('redraws one line at most ten times a second, always the last step, and clears it at the end', () => {
    const out: string[] = [];
    let t = 0;
    const p = createProgress({ write: (s) => out.push(s), enabled: true, now: () => t });
    p.update('a', 1, 10);
    t = 50;
    p.update('a', 2, 10); // too soon
    t = 150;
    p.update('a', 3, 10);
    t = 160;
    p.update('a', 10, 10); // the end is always drawn
    p.end();
    expect(out).toHaveLength(4);
    expect(out.every((s) => s.startsWith('\r\x1b[2K'))).toBe(true);
    expect(out[2]).toContain('10/10');
    expect(out[3]).toBe('\r\x1b[2K');
  });
});
