import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ftsCandidates, NAMESPACE_FIRST_MIN_POSTINGS } from '../../../../src/core/retrieval/candidates.js';
import type { SearchOptions } from '../../../../src/core/retrieval/search-types.js';
import type { Db } from '../../../../src/database/open.js';
import { GLOBAL_PROJECT, type RecordType } from '../../../../src/shared/types.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Two plans answer one candidate query: the usual one joins every match to its record row to
 * filter it; the namespace-first one lists the rows the filter keeps and scores only the matches
 * among them. Whichever runs, the candidates must be the same records with the same relevance,
 * for any store, query and filter (projects, superseded records, types, excluded and only ids,
 * history, a point in time).
 */

const WORDS = ['webhook', 'retry', 'queue', 'cache', 'deploy', 'token', 'schema', 'billing'];
const TYPES: RecordType[] = ['decision', 'convention', 'discovery', 'preference'];
const OWNERS = ['p', 'q', 'r', GLOBAL_PROJECT];

interface Row {
  owner: number;
  type: number;
  title: number[];
  body: number[];
  superseded: boolean;
  day: number;
}

const rowArb: fc.Arbitrary<Row> = fc.record({
  owner: fc.nat(OWNERS.length - 1),
  type: fc.nat(TYPES.length - 1),
  title: fc.array(fc.nat(WORDS.length - 1), { minLength: 1, maxLength: 3 }),
  body: fc.array(fc.nat(WORDS.length - 1), { minLength: 0, maxLength: 8 }),
  superseded: fc.boolean(),
  day: fc.integer({ min: 1, max: 28 }),
});

function fill(db: Db, rows: readonly Row[]): void {
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at,
       superseded_at, source)
     VALUES (?, ?, ?, ?, ?, ?, 'explicit', ?, ?, ?, 'import')`,
  );
  db.transaction(() => {
    rows.forEach((r, i) => {
      const owner = OWNERS[r.owner]!;
      const day = `2026-01-${String(r.day).padStart(2, '0')}T00:00:00.000Z`;
      ins.run(
        `id${String(i).padStart(4, '0')}`,
        owner,
        TYPES[r.type]!,
        r.title.map((w) => WORDS[w]).join(' '),
        r.body.map((w) => WORDS[w]).join(' '),
        owner === GLOBAL_PROJECT ? 'global' : 'project',
        day,
        day,
        r.superseded ? '2026-02-01T00:00:00.000Z' : null,
      );
    });
  })();
}

const optsArb = fc.record({
  projectId: fc.constantFrom('p', 'q', 'nobody'),
  scope: fc.constantFrom<'project' | 'global' | undefined>('project', 'global', undefined),
  types: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.subarray(TYPES, { minLength: 1 }), weight: 1 },
  ),
  history: fc.boolean(),
  asOf: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 3 },
    { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 1 },
  ),
  // low ids, so that the excluded ones are often among the matches
  exclude: fc.array(fc.nat(25), { maxLength: 12 }),
  // a file search's ids (rare: such a search never lists the namespace)
  only: fc.oneof(
    { arbitrary: fc.constant(undefined), weight: 4 },
    { arbitrary: fc.array(fc.nat(79), { maxLength: 20 }), weight: 1 },
  ),
  // small pools, so that excluded ids crowd the best places
  candidates: fc.oneof(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 100 })),
  indexFirst: fc.boolean(),
});

/** An OR of words and prefixes, or (as a narrowed query has) an OR of pairs that must both match. */
const matchArb = fc
  .tuple(fc.subarray(WORDS, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([ws, pairs]) => {
    const phrases = ws.map((w, i) => (i % 2 === 0 ? `"${w.slice(0, 4)}"*` : `"${w}"`));
    if (!pairs || phrases.length < 2) return phrases.join(' OR ');
    return phrases.flatMap((a, i) => phrases.slice(i + 1).map((b) => `(${a} AND ${b})`)).join(' OR ');
  });

const id = (n: number): string => `id${String(n).padStart(4, '0')}`;

/** The plan of each candidate query prepared on `db` from now on: true when it lists the namespace. */
function spyPlans(db: Db): { plans: boolean[]; restore: () => void } {
  const plans: boolean[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    if (sql.includes('records_fts MATCH')) plans.push(sql.includes('AS MATERIALIZED (SELECT r.rowid'));
    return prepare(sql);
  }) as typeof db.prepare;
  return { plans, restore: () => (db.prepare = prepare) };
}

describe('namespace-first candidates', () => {
  it('returns the records and relevance the usual plan returns, for any store, query and filter', () => {
    const t = tempDir();
    const s = testStore(t.path, 'p');
    try {
      fc.assert(
        fc.property(
          fc.array(rowArb, { minLength: 10, maxLength: 80 }),
          optsArb,
          matchArb,
          (rows, o, match) => {
            s.db.transaction(() => s.db.exec('DELETE FROM records'))();
            fill(s.db, rows);
            const opts: SearchOptions = {
              projectId: o.projectId,
              query: '',
              scope: o.scope,
              types: o.types,
              history: o.history,
              excludeIds: o.exclude.map(id),
              onlyIds: o.only?.map(id),
              candidates: o.candidates,
              now: s.clock(),
              ...(o.asOf
                ? { time: { asOf: `2026-01-${String(Math.min(o.asOf, 28)).padStart(2, '0')}T12:00:00.000Z` } }
                : {}),
            };
            // the exact pool of the usual plan, then the namespace plan asked with any match count
            const usual = ftsCandidates(s.db, { ...opts, indexFirst: false }, match);
            const listed = ftsCandidates(
              s.db,
              { ...opts, indexFirst: o.indexFirst },
              match,
              1e9, // more postings than any store here has rows
            );
            expect(listed.map((r) => r.rel)).toEqual(usual.map((r) => r.rel));
            // ties may come in either order, and at the cut either tied record may be kept
            const cut = usual.length === o.candidates ? usual.at(-1)!.rel : Number.NEGATIVE_INFINITY;
            const above = (xs: typeof usual) =>
              xs
                .filter((r) => r.rel > cut)
                .map((r) => `${r.id}:${r.rel}`)
                .sort();
            expect(above(listed)).toEqual(above(usual));
            for (const r of listed) expect(r.title).toBe(usual.find((u) => u.id === r.id)?.title ?? r.title);
          },
        ),
        { seed: 20261203, numRuns: 300 },
      );
    } finally {
      s.db.close();
      t.cleanup();
    }
  });

  it('lists the namespace only when the postings pass a share of the rows the filter keeps', () => {
    const t = tempDir();
    const s = testStore(t.path, 'p');
    try {
      // 1,000 records of project p and 9,000 of other projects
      fill(
        s.db,
        Array.from({ length: 10_000 }, (_, i) => ({
          owner: i % 10 === 0 ? 0 : 1 + (i % 2),
          type: 0,
          title: [0],
          body: [1],
          superseded: false,
          day: 1,
        })),
      );
      const { plans, restore } = spyPlans(s.db);
      const opts: SearchOptions = { projectId: 'p', query: '', now: s.clock() };
      const listed = (postings: number | undefined, indexFirst = false) => {
        plans.length = 0;
        const rows = ftsCandidates(s.db, { ...opts, indexFirst }, '"webhook"', postings);
        expect(rows.length).toBeGreaterThan(0);
        for (const r of rows) expect(r.project_id).toBe('p');
        return plans[0];
      };
      expect(listed(undefined)).toBe(false);
      expect(listed(NAMESPACE_FIRST_MIN_POSTINGS - 1)).toBe(false);
      expect(listed(NAMESPACE_FIRST_MIN_POSTINGS)).toBe(true); // against 1,000 kept rows
      expect(listed(2000, true)).toBe(false);
      expect(listed(NAMESPACE_FIRST_MIN_POSTINGS, true)).toBe(true); // 3 × 1,000 kept rows
      // one project: the filter keeps all 10,000 records, so listing them pays later
      s.db.transaction(() => s.db.exec("UPDATE records SET project_id = 'p'"))();
      expect(listed(6000)).toBe(false);
      expect(listed(6001)).toBe(true);
      expect(listed(30_000, true)).toBe(false);
      expect(listed(30_001, true)).toBe(true);
      // the ids a file search keeps are not in the covering index: never listed
      expect(ftsCandidates(s.db, { ...opts, onlyIds: ['id0001'] }, '"webhook"', 1e9)).toHaveLength(1);
      expect(plans.at(-1)).toBe(false);
      restore();
    } finally {
      s.db.close();
      t.cleanup();
    }
  });

  it('an index-first pass crowded out by other projects falls back to the exact pool, listed when that pays', () => {
    const t = tempDir();
    const s = testStore(t.path, 'p');
    try {
      // 2,000 records of p, outranked by 3,000 of project q that say the word twice
      fill(
        s.db,
        Array.from({ length: 5000 }, (_, i) => ({
          owner: i < 2000 ? 0 : 1,
          type: 0,
          title: i < 2000 ? [0] : [0, 0],
          body: [],
          superseded: false,
          day: 1,
        })),
      );
      const { plans, restore } = spyPlans(s.db);
      const opts: SearchOptions = {
        projectId: 'p',
        query: '',
        indexFirst: true,
        candidates: 30,
        now: s.clock(),
      };
      // 5,000 postings: under 3 × 2,000 for the first pass, over 0.6 × 2,000 for the exact pool
      const rows = ftsCandidates(s.db, opts, '"webhook"', 5000);
      expect(plans).toEqual([false, true]);
      expect(rows).toHaveLength(30);
      for (const r of rows) expect(r.project_id).toBe('p');
      plans.length = 0;
      expect(ftsCandidates(s.db, opts, '"webhook"').map((r) => r.id)).toEqual(rows.map((r) => r.id));
      expect(plans).toEqual([false, false]); // no count given: the joined plan
      restore();
    } finally {
      s.db.close();
      t.cleanup();
    }
  });
});
