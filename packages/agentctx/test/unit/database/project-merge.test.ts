import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { createRecord } from '../../../src/core/records/records.js';
import { idsWithData, mergeProjectInto } from '../../../src/database/project-merge.js';
import { testStore } from '../../support/store.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Moving one project id's rows to another (worktrees that were projects of their own): nothing
 * stored is lost, one current record per key survives, and a second move changes nothing.
 */

const FROM = 'p-worktree';
const TO = 'p-shared';
const tmp = tempDir('agentctx-merge-');
afterAll(() => tmp.cleanup());

type Spec = { project: 0 | 1; type: 'decision' | 'handover' | 'profile'; key: number; day: number };

const spec: fc.Arbitrary<Spec> = fc.record({
  project: fc.constantFrom(0 as const, 1 as const),
  type: fc.constantFrom('decision' as const, 'handover' as const, 'profile' as const),
  key: fc.integer({ min: 0, max: 2 }),
  day: fc.integer({ min: 1, max: 28 }),
});

interface Row {
  id: string;
  project_id: string;
  type: string;
  title: string;
  superseded_at: string | null;
  superseded_by: string | null;
  valid_from: string;
}

describe('mergeProjectInto', () => {
  let n = 0;
  it('keeps every record, leaves one current handover and profile key, and is idempotent', () => {
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 14 }), (specs) => {
        n += 1;
        const { db, deps } = testStore(tmp.path, FROM);
        try {
          db.transaction(() => db.exec('DELETE FROM records; DELETE FROM sessions;'))();
          for (const s of specs) {
            const projectId = s.project === 0 ? FROM : TO;
            const iso = `2026-10-${String(s.day).padStart(2, '0')}T10:00:00.000Z`;
            createRecord(
              { ...deps, projectId, clock: () => new Date(iso) },
              {
                type: s.type,
                title: s.type === 'profile' ? `key-${s.key}` : `${s.type} ${n} ${s.key} ${s.day}`,
                body: `body ${s.key} ${s.day}`,
                source: 'cli',
                confidence: 'explicit',
                validFrom: iso,
              },
            );
          }
          db.prepare('INSERT INTO sessions (session_id, project_id) VALUES (?, ?)').run(`s${n}`, FROM);
          const before = db.prepare('SELECT * FROM records').all() as Row[];
          const currentBefore = (pid: string, type: string) =>
            before.filter((r) => r.project_id === pid && r.type === type && r.superseded_at === null);

          mergeProjectInto(db, FROM, TO, new Date('2026-11-30T12:00:00Z'));
          const after = db.prepare('SELECT * FROM records ORDER BY id').all() as Row[];
          expect(after).toHaveLength(before.length);
          expect(after.every((r) => r.project_id === TO)).toBe(true);
          expect(idsWithData(db, [FROM, TO])).toEqual([TO]);
          const current = after.filter((r) => r.superseded_at === null);
          expect(current.filter((r) => r.type === 'handover').length).toBeLessThanOrEqual(1);
          const keys = current.filter((r) => r.type === 'profile').map((r) => r.title);
          expect(new Set(keys).size).toBe(keys.length);
          // the surviving handover is the later of the two current ones
          const handovers = [...currentBefore(FROM, 'handover'), ...currentBefore(TO, 'handover')];
          if (handovers.length > 0) {
            const latest = handovers.reduce((a, b) =>
              b.valid_from > a.valid_from || (b.valid_from === a.valid_from && b.id > a.id) ? b : a,
            );
            expect(current.find((r) => r.type === 'handover')?.id).toBe(latest.id);
          }
          // a record closed here names its successor, which is current
          for (const r of after.filter((x) => x.superseded_at === '2026-11-30T12:00:00.000Z'))
            expect(current.map((c) => c.id)).toContain(r.superseded_by);
          // decisions are never touched
          expect(current.filter((r) => r.type === 'decision')).toHaveLength(
            before.filter((r) => r.type === 'decision' && r.superseded_at === null).length,
          );
          const session = db.prepare('SELECT project_id FROM sessions WHERE session_id = ?').get(`s${n}`) as {
            project_id: string;
          };
          expect(session.project_id).toBe(TO);

          const snapshot = JSON.stringify(after);
          mergeProjectInto(db, FROM, TO, new Date('2026-12-01T12:00:00Z'));
          expect(JSON.stringify(db.prepare('SELECT * FROM records ORDER BY id').all())).toBe(snapshot);
        } finally {
          db.close();
        }
      }),
      { seed: 20261203, numRuns: 60 },
    );
  });

  it('moves dismissals, and keeps the target’s team link where both ids hold one key', () => {
    const { db } = testStore(tmp.path, FROM);
    try {
      db.exec('DELETE FROM merge_dismissals; DELETE FROM team_links;');
      const dismiss = db.prepare(
        'INSERT INTO merge_dismissals (project_id, id_a, id_b, dismissed_at) VALUES (?, ?, ?, ?)',
      );
      dismiss.run(TO, 'a', 'b', '2026-02-02');
      dismiss.run(FROM, 'c', 'd', '2026-03-03');
      const link = db.prepare('INSERT INTO team_links (project_id, key, record_id) VALUES (?, ?, ?)');
      link.run(FROM, 'k1', 'r-from');
      link.run(TO, 'k1', 'r-to');
      link.run(FROM, 'k2', 'r2');
      mergeProjectInto(db, FROM, TO, new Date());
      expect(
        db.prepare('SELECT project_id, id_a, dismissed_at FROM merge_dismissals ORDER BY id_a').all(),
      ).toEqual([
        { project_id: TO, id_a: 'a', dismissed_at: '2026-02-02' },
        { project_id: TO, id_a: 'c', dismissed_at: '2026-03-03' },
      ]);
      expect(db.prepare('SELECT project_id, key, record_id FROM team_links ORDER BY key').all()).toEqual([
        { project_id: TO, key: 'k1', record_id: 'r-to' },
        { project_id: TO, key: 'k2', record_id: 'r2' },
      ]);
    } finally {
      db.close();
    }
  });
});
