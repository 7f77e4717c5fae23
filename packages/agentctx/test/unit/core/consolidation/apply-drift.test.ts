import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyDriftScores } from '../../../../src/core/consolidation/apply.js';
import { consolidate } from '../../../../src/core/consolidation/run.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let db: Db;
beforeEach(() => {
  t = tempDir();
  db = openDb(`${t.path}/d.db`);
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
     VALUES (?, ?, 'decision', ?, 'body text', 'project', 'explicit', '2026-01-01', '2026-01-01', 'import')`,
  );
  db.transaction(() => {
    for (let i = 0; i < 30; i++) ins.run(`r${i}`, i < 24 ? 'p' : 'other', `title ${i}`);
  })();
});
afterEach(() => {
  db.close();
  t.cleanup();
});

const scores = () =>
  Object.fromEntries(
    (
      db.prepare('SELECT id, claudemd_drift_score AS s FROM records ORDER BY id').all() as {
        id: string;
        s: number;
      }[]
    ).map((r) => [r.id, r.s]),
  );

describe('applyDriftScores', () => {
  it('leaves the scores the old reset-then-set transaction left, writing only differences, in slices', () => {
    const id = fc.integer({ min: 0, max: 29 }).map((i) => `r${i}`);
    const score = fc.constantFrom(0, 0.25, 0.5, 1);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(id, score), { maxLength: 30 }),
        // a plan names the project's records (assessed or contradicted ones)
        fc.array(fc.record({ id: fc.integer({ min: 0, max: 23 }).map((i) => `r${i}`), score }), {
          maxLength: 30,
        }),
        fc.integer({ min: 1, max: 8 }),
        (stored, planned, cap) => {
          db.exec('UPDATE records SET claudemd_drift_score = 0');
          const set = db.prepare('UPDATE records SET claudemd_drift_score = ? WHERE id = ?');
          for (const [i, s] of stored) set.run(s, i);
          // what one transaction did before: every score of the project to 0, then the plan in order
          const want = scores();
          for (const k of Object.keys(want)) if (Number(k.slice(1)) < 24) want[k] = 0;
          for (const p of planned) want[p.id] = p.score;
          const before = scores();
          let slices = 0;
          const changed = applyDriftScores(db, 'p', planned, () => slices++, {
            cap,
            maxMs: Number.POSITIVE_INFINITY,
            pauseMs: 0,
          });
          expect(scores()).toEqual(want);
          const differing = Object.keys(want).filter((k) => want[k] !== before[k]).length;
          expect(changed).toBe(differing);
          expect(slices).toBe(Math.ceil(changed / cap));
          // nothing left to change: a rerun writes nothing
          expect(applyDriftScores(db, 'p', planned)).toBe(0);
        },
      ),
      { seed: 31, numRuns: 150 },
    );
  });

  it('a run without a CLAUDE.md puts every drift score of the project back to 0', () => {
    db.exec("UPDATE records SET claudemd_drift_score = 0.5 WHERE id IN ('r1', 'r2', 'r25')");
    const run = consolidate({
      db,
      clock: () => new Date('2026-11-30T12:00:00Z'),
      newId: (() => {
        let n = 0;
        return () => `01JX${String(++n).padStart(22, '0')}`;
      })(),
      project: { id: 'p', name: 'p', root: `${t.path}/no-repo` },
      digestsDir: `${t.path}/digests`,
    });
    expect(run.drift).toEqual({ missing: 0, contradicted: 0 });
    expect(scores()).toMatchObject({ r1: 0, r2: 0, r25: 0.5 }); // another project's stays
  });
});
