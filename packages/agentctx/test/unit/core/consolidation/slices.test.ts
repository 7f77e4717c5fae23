import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeInSlices } from '../../../../src/core/consolidation/slices.js';
import { openDb } from '../../../../src/storage/open.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

describe('writeInSlices', () => {
  it('writes every item once, in order, each slice its own committed transaction within its bounds', () => {
    const db = openDb(`${t.path}/s.db`);
    db.exec('CREATE TABLE IF NOT EXISTS w (i INTEGER, slice INTEGER)');
    const ins = db.prepare('INSERT INTO w (i, slice) VALUES (?, ?)');
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 120 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 20 }),
        (n, cap, costs) => {
          db.exec('DELETE FROM w');
          // a fake clock: each write costs a few "milliseconds"; a slice ends past 15
          let clock = 0;
          let k = 0;
          let slice = 0;
          const ends: number[] = [];
          const count = writeInSlices(
            db,
            Array.from({ length: n }, (_, i) => i),
            (i) => {
              expect(db.inTransaction).toBe(true);
              clock += costs[k++ % costs.length]!;
              ins.run(i, slice);
            },
            (done) => {
              expect(db.inTransaction).toBe(false);
              ends.push(done);
              slice++;
            },
            { cap, maxMs: 15, now: () => clock },
          );
          const rows = db.prepare('SELECT i, slice FROM w ORDER BY rowid').all() as {
            i: number;
            slice: number;
          }[];
          expect(rows.map((r) => r.i)).toEqual(Array.from({ length: n }, (_, i) => i));
          expect(count).toBe(ends.length);
          expect(ends.at(-1) ?? 0).toBe(n);
          const sizes = ends.map((e, j) => e - (ends[j - 1] ?? 0));
          for (const size of sizes) {
            expect(size).toBeGreaterThan(0);
            expect(size).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { seed: 7, numRuns: 200 },
    );
    db.close();
  });

  it('ends a slice once its writes took maxMs, so a slow writer commits often', () => {
    const db = openDb(`${t.path}/t.db`);
    let clock = 0;
    const ends: number[] = [];
    writeInSlices(
      db,
      Array.from({ length: 10 }, (_, i) => i),
      () => {
        clock += 10;
      },
      (d) => ends.push(d),
      { maxMs: 15, cap: 1000, now: () => clock },
    );
    expect(ends).toEqual([2, 4, 6, 8, 10]);
    db.close();
  });
});
