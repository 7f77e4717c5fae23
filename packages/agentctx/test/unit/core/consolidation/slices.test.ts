import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SLICE_PAUSE_MS, writeInSlices } from '../../../../src/core/consolidation/slices.js';
import { openDb } from '../../../../src/database/open.js';
import { tempDir } from '../../../support/tmp.js';
import { lockProbe } from '../../../support/write-lock.js';

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
            { cap, maxMs: 15, now: () => clock, pauseMs: 0 },
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
      { maxMs: 15, cap: 1000, now: () => clock, pauseMs: 0 },
    );
    expect(ends).toEqual([2, 4, 6, 8, 10]);
    db.close();
  });

  it('lets the lock go for a pause between two slices, never before the first or after the last: another connection takes it then', () => {
    const path = `${t.path}/p.db`;
    const db = openDb(path);
    db.exec('CREATE TABLE IF NOT EXISTS w (i INTEGER)');
    const ins = db.prepare('INSERT INTO w (i) VALUES (?)');
    // another process's connection, which does not wait: it gets the lock only when it is free
    const probe = lockProbe(path);
    const takes = probe.takes;
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 60 }),
        fc.integer({ min: 1, max: 25 }),
        fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
        (n, cap, pauseMs) => {
          const events: string[] = [];
          const slices = writeInSlices(
            db,
            Array.from({ length: n }, (_, i) => i),
            (i) => {
              if (i % 7 === 0) expect(takes()).toBe(false); // held while a slice writes
              ins.run(i);
              events.push('w');
            },
            () => events.push('commit'),
            {
              cap,
              maxMs: Number.POSITIVE_INFINITY,
              ...(pauseMs === undefined ? {} : { pauseMs }),
              sleep: (ms) => {
                expect(ms).toBe(pauseMs ?? SLICE_PAUSE_MS);
                expect(db.inTransaction).toBe(false);
                expect(takes()).toBe(true);
                events.push('pause');
              },
            },
          );
          // slice, pause, slice, …, slice: one pause between each two, none around them
          const shape = events.join(' ').replace(/(w )+commit/g, 'slice');
          expect(shape).toBe(Array.from({ length: slices }, () => 'slice').join(' pause '));
          expect(slices).toBe(Math.ceil(n / cap));
        },
      ),
      { seed: 20, numRuns: 100 },
    );
    probe.close();
    db.close();
  });
});
