import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import type { BenchDataset, BenchRecord } from '../../../src/bench/dataset.js';
import { loadDataset } from '../../../src/bench/run.js';
import { type Db, openDb } from '../../../src/database/open.js';
import { tempDir } from '../../support/tmp.js';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function freshDb(): Db {
  const dir = tempDir('agentctx-bench-load-');
  const db = openDb(join(dir.path, 'agentctx.db'));
  cleanups.push(() => {
    db.close();
    dir.cleanup();
  });
  return db;
}

const record = (id: string, project: string, type: BenchRecord['type'], day: number): BenchRecord => ({
  id,
  project,
  type,
  title: type === 'profile' ? 'editor' : `record ${id}`,
  body: `body of ${id}`,
  valid_from: new Date(Date.UTC(2025, 0, 1 + day)).toISOString(),
});

describe('loading a benchmark dataset', () => {
  it('keeps one current handover per project: older ones are loaded superseded by the next newer', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            project: fc.constantFrom('a', 'b'),
            type: fc.constantFrom('handover', 'profile', 'decision') as fc.Arbitrary<BenchRecord['type']>,
            day: fc.integer({ min: 0, max: 300 }),
          }),
          { minLength: 1, maxLength: 12 },
        ),
        (specs) => {
          const db = freshDb();
          const records = specs.map((s, i) => record(`r${i}`, s.project, s.type, s.day));
          const data: BenchDataset = { name: 't', records, queries: [] };
          loadDataset(db, data);
          const rows = db
            .prepare('SELECT id, project_id, type, superseded_at, superseded_by FROM records')
            .all() as {
            id: string;
            project_id: string;
            type: string;
            superseded_at: string | null;
            superseded_by: string | null;
          }[];
          expect(rows.length).toBe(records.length);
          for (const project of ['a', 'b']) {
            for (const type of ['handover', 'profile']) {
              const group = records.filter((r) => r.project === project && r.type === type);
              if (group.length === 0) continue;
              const current = rows.filter(
                (r) => r.project_id === project && r.type === type && r.superseded_at === null,
              );
              expect(current.length).toBe(1);
              const newest = Math.max(...group.map((r) => Date.parse(r.valid_from)));
              const kept = records.find((r) => r.id === current[0]!.id)!;
              expect(Date.parse(kept.valid_from)).toBe(newest);
              for (const old of rows.filter(
                (r) => r.project_id === project && r.type === type && r.superseded_at !== null,
              ))
                expect(old.superseded_by).not.toBeNull();
            }
          }
          expect(rows.filter((r) => r.type === 'decision').every((r) => r.superseded_at === null)).toBe(true);
        },
      ),
      { seed: 1919, numRuns: 40 },
    );
  });
});
