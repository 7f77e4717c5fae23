import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { buildDiceIndex, DICE_FLOOR } from '../../../../src/core/consolidation/dice-index.js';
import { termSet } from '../../../../src/core/consolidation/duplicates.js';
import { scanNearDuplicates } from '../../../../src/core/consolidation/near-duplicates.js';
import type { NearRow } from '../../../../src/core/consolidation/plan.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

const WORDS = [
  'ledger',
  'invoice',
  'webhook',
  'retry',
  'queue',
  'tenant',
  'audit',
  'export',
  'refund',
  'cache',
  'kestrel',
  'quill',
  'marten',
  'osprey',
  'heron',
  'lynx',
  'otter',
  'badger',
  'falcon',
  'wren',
];

/** Records from a small vocabulary, with near copies: many pairs sit around the Dice floor. */
const recordsArb = fc
  .array(
    fc.record({
      words: fc.uniqueArray(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 9 }),
      // a near copy of the record before it: its words, one swapped for another
      copy: fc.boolean(),
      swap: fc.constantFrom(...WORDS),
      type: fc.constantFrom('decision', 'bugfix'),
      project: fc.constantFrom('p1', '_global'),
    }),
    { minLength: 1, maxLength: 40 },
  )
  .map((rs) => {
    const rows: NearRow[] = [];
    rs.forEach((r, i) => {
      const prev = rows[i - 1];
      const words =
        r.copy && prev
          ? [...new Set([...`${prev.title} ${prev.body}`.split(' ').filter(Boolean).slice(1), r.swap])]
          : r.words;
      rows.push({
        id: `r${String(i).padStart(3, '0')}`,
        project_id: r.copy && prev ? prev.project_id : r.project,
        type: r.copy && prev ? prev.type : r.type,
        title: words.slice(0, 3).join(' '),
        body: words.slice(3).join(' '),
        recorded_at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      });
    });
    return rows;
  });

function bruteDice(a: Set<string>, b: Set<string>): number {
  let both = 0;
  for (const t of a) if (b.has(t)) both++;
  return (2 * both) / (a.size + b.size);
}

describe('the Dice pre-filter of the near-duplicate scan', () => {
  it('says "no partner" exactly when no record of the same namespace and type reaches the floor', () => {
    fc.assert(
      fc.property(recordsArb, (rows) => {
        const index = buildDiceIndex(rows, termSet);
        for (const a of rows) {
          const sa = termSet(a);
          const partner = rows.some(
            (b) =>
              b.id !== a.id &&
              b.project_id === a.project_id &&
              b.type === a.type &&
              sa.size > 0 &&
              termSet(b).size > 0 &&
              bruteDice(sa, termSet(b)) >= DICE_FLOOR,
          );
          expect(index.mayHavePartner(a.id)).toBe(partner);
        }
      }),
      { seed: 20, numRuns: 200 },
    );
  });

  describe('in the scan', () => {
    let t: ReturnType<typeof tempDir> | undefined;
    afterEach(() => t?.cleanup());

    it('finds the same candidates with the pre-filter as without it', () => {
      t = tempDir();
      let withPairs = 0;
      const stores = ['with', 'without'].map((d) => {
        mkdirSync(join(t!.path, d));
        return testStore(join(t!.path, d), 'p1');
      });
      fc.assert(
        fc.property(recordsArb, (rows) => {
          const found = stores.map((s, k) => {
            s.db.transaction(() => s.db.exec('DELETE FROM merge_candidates; DELETE FROM records;'))();
            const ins = s.db.prepare(
              `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
               VALUES (?, ?, ?, ?, ?, 'project', 'explicit', ?, ?, 'cli')`,
            );
            for (const r of rows)
              ins.run(r.id, r.project_id, r.type, r.title, r.body, r.recorded_at, r.recorded_at);
            scanNearDuplicates({
              db: s.db,
              projectId: 'p1',
              namespaces: ['p1', '_global'],
              state: {},
              nowIso: '2026-02-01T00:00:00Z',
              elapsed: () => 0,
              budgetMs: 60_000,
              prefilterFrom: k === 0 ? 1 : Number.POSITIVE_INFINITY,
            });
            return s.db
              .prepare(
                'SELECT record_a, record_b, similarity FROM merge_candidates ORDER BY record_a, record_b',
              )
              .all();
          });
          expect(found[0]).toEqual(found[1]);
          if (found[0]!.length > 0) withPairs++;
        }),
        { seed: 21, numRuns: 40 },
      );
      for (const s of stores) s.db.close();
      expect(withPairs).toBeGreaterThan(10); // the runs did compare candidates, not empty lists
    });
  });
});
