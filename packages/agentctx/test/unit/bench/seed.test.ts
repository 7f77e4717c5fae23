import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { hookRecords } from '../../../src/bench/hook-store.js';
import { type SeedRecord, seedStore } from '../../../src/bench/seed.js';
import { serialId } from '../../../src/bench/text.js';
import { SCHEMA_VERSION } from '../../../src/database/migrations.js';
import { openDb } from '../../../src/database/open.js';
import { getRecord } from '../../../src/database/records-repo.js';
import { RECORD_TYPES } from '../../../src/shared/types.js';
import { storeHealth } from '../../support/store-check.js';
import { tempDir } from '../../support/tmp.js';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
const newStore = () => {
  const d = tempDir('agentctx-bench-seed-');
  dirs.push(d);
  return join(d.path, 'agentctx.db');
};

/** What a seeded store must be: sound, current, and every row as the repository reads it back. */
function expectSeeded(path: string, rows: readonly SeedRecord[]): void {
  expect(storeHealth(path)).toEqual({ integrity: 'ok', fts: 'ok' });
  const db = openDb(path, { readonly: true });
  try {
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    for (const r of rows) {
      const got = getRecord(db, r.id);
      expect(got, r.id).toMatchObject({
        project_id: r.project_id,
        type: r.type,
        title: r.title,
        body: r.body,
        valid_from: r.valid_from,
        scope: r.scope ?? 'project',
        confidence: r.confidence ?? 'explicit',
        source: r.source ?? 'import',
        superseded_at: r.superseded_at ?? null,
        superseded_by: r.superseded_by ?? null,
        access_count: r.accesses ?? 0,
      });
    }
    const n = (db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
    expect(n).toBe(rows.length);
  } finally {
    db.close();
  }
}

const seedRow = (projects: string[]) =>
  fc.record({
    project: fc.constantFrom(...projects),
    type: fc.constantFrom(...RECORD_TYPES),
    // a few titles recur: profile facts keyed by their title meet their older versions
    title: fc.oneof(fc.constantFrom('Editor', 'Shell'), fc.string({ minLength: 1, maxLength: 30 })),
    body: fc.string({ minLength: 1, maxLength: 80 }),
    retired: fc.boolean(),
    accesses: fc.nat(3),
  });

describe('bench stores seeded through the migrations and the records repository', () => {
  it('any mix of records (retired, handovers, successors, reads) makes a sound store at the current schema', () => {
    fc.assert(
      fc.property(fc.array(seedRow(['p1', 'p2', '_global']), { maxLength: 40 }), (drawn) => {
        const path = newStore();
        const at = '2025-01-01T00:00:00.000Z';
        const current = new Set<string>();
        const rows: SeedRecord[] = drawn.map((d, i) => {
          // one current handover per project, one current profile fact per title: a store invariant
          const key =
            d.type === 'handover'
              ? `h:${d.project}`
              : d.type === 'profile'
                ? `p:${d.project}:${d.title}`
                : '';
          const retired = d.retired || (key !== '' && current.has(key));
          if (key && !retired) current.add(key);
          return {
            id: serialId('01TEST', i),
            project_id: d.project,
            type: d.type,
            title: d.title,
            body: d.body,
            valid_from: at,
            superseded_at: retired ? at : null,
            superseded_by: retired && i > 0 ? serialId('01TEST', i - 1) : null,
            accesses: d.accesses,
          };
        });
        expect(seedStore(path, rows, { termDf: true })).toBe(rows.length);
        expectSeeded(path, rows);
      }),
      { numRuns: 40 },
    );
  });

  it('the hook benchmarks’ store: 2,000 records, one current handover per project, word counts built', () => {
    const path = newStore();
    const ids: string[] = [];
    const rows = [...hookRecords('a'.repeat(64), 2000, ids)];
    seedStore(path, rows, { termDf: true });
    expectSeeded(path, rows);
    expect(ids.length).toBe(40);
    const db = openDb(path, { readonly: true });
    try {
      const doubled = db
        .prepare(
          "SELECT project_id FROM records WHERE type = 'handover' AND superseded_at IS NULL GROUP BY project_id HAVING COUNT(*) > 1",
        )
        .all();
      expect(doubled).toEqual([]);
      // the word counts as consolidation leaves them: a term_df row for every indexed word
      const terms = db.prepare('SELECT COUNT(*) AS n FROM term_df').get() as { n: number };
      const vocab = db.prepare('SELECT COUNT(*) AS n FROM records_fts_vocab').get() as { n: number };
      expect(terms.n).toBe(vocab.n);
      expect(terms.n).toBeGreaterThan(100);
    } finally {
      db.close();
    }
  });

  it('the same seed gives the same store, twice', () => {
    const a = [...hookRecords('b'.repeat(64), 300, [])];
    const b = [...hookRecords('b'.repeat(64), 300, [])];
    expect(b).toEqual(a);
  });
});
