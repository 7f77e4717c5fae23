import { describe, expect, it } from 'vitest';
import { matchFor, POSTINGS_BUDGET, pickTerms } from '../../../../src/core/retrieval/query.js';
import { buildMatchExpression } from '../../../../src/database/fts-match.js';
import { extractTerms } from '../../../../src/text/terms.js';

const terms = extractTerms('refresh token middleware retry backoff');
const df = (n: number) => new Map(terms.map((t, i) => [t.stem, n + i]));

describe('the postings budget', () => {
  it('ORs the terms while the postings they walk stay within the budget', () => {
    expect(matchFor(terms, df(10))).toBe(buildMatchExpression(terms));
  });

  it('asks for two of the rarest four words when every word is common', () => {
    const common = df(POSTINGS_BUDGET);
    const m = matchFor(terms, common)!;
    expect(m.split(' AND ')).toHaveLength(7); // pairs of four
    expect(m).toContain(' AND ');
    // the most common word is the one left out
    expect(m).not.toContain(terms[terms.length - 1]!.stem);
  });

  it('leaves out the most common words past the budget, never below three', () => {
    const big = new Map(terms.map((t, i) => [t.stem, (i + 1) * POSTINGS_BUDGET]));
    const kept = pickTerms(terms, big, 12, Number.POSITIVE_INFINITY);
    expect(kept.map((t) => t.stem)).toEqual(terms.slice(0, 3).map((t) => t.stem));
  });
});

describe('search on a store where every query word is common', () => {
  it('finds records holding two words, and falls back to any word when none holds two', async () => {
    const { tempDir } = await import('../../../support/tmp.js');
    const { testStore } = await import('../../../support/store.js');
    const { search } = await import('../../../../src/core/retrieval/search.js');
    const t = tempDir();
    const s = testStore(t.path, 'big');
    try {
      const ins = s.db.prepare(
        `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
         VALUES (?, 'big', 'discovery', ?, ?, 'project', 'explicit', '2026-01-01', '2026-01-01', 'import')`,
      );
      s.db.transaction(() => {
        for (let i = 0; i < 21_000; i++) ins.run(`a${i}`, `alpha note ${i}`, 'alpha only');
        for (let i = 0; i < 21_000; i++) ins.run(`b${i}`, `beta note ${i}`, 'beta only');
        ins.run('both', 'alpha beta together', 'the one record with both words');
      })();
      const both = search(s.db, { projectId: 'big', query: 'alpha beta', now: s.clock(), limit: 3 });
      expect(both.degraded).toBeUndefined();
      expect(both.hits.map((h) => h.record.id)).toEqual(['both']);
      s.db.transaction(() => s.db.prepare("DELETE FROM records WHERE id = 'both'").run())();
      const either = search(s.db, { projectId: 'big', query: 'alpha beta', now: s.clock(), limit: 3 });
      expect(either.degraded).toBeUndefined();
      expect(either.hits).toHaveLength(3);
    } finally {
      s.db.close();
      t.cleanup();
    }
  });

  it('a smaller budget (the prompt hook) narrows sooner, the default still ORs', async () => {
    const { tempDir } = await import('../../../support/tmp.js');
    const { testStore } = await import('../../../support/store.js');
    const { search } = await import('../../../../src/core/retrieval/search.js');
    const t = tempDir();
    const s = testStore(t.path, 'mid');
    try {
      const ins = s.db.prepare(
        `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
         VALUES (?, 'mid', 'discovery', ?, ?, 'project', 'explicit', '2026-01-01', '2026-01-01', 'import')`,
      );
      s.db.transaction(() => {
        for (let i = 0; i < 400; i++) ins.run(`r${i}`, `retry note ${i}`, 'retry alone, and at length');
        for (let i = 0; i < 400; i++) ins.run(`q${i}`, `queue note ${i}`, 'queue alone');
        for (let i = 0; i < 400; i++) ins.run(`w${i}`, `webhook note ${i}`, 'webhook alone');
        ins.run('two', 'webhook queue', 'the webhook queue');
      })();
      const q = { projectId: 'mid', query: 'retry webhook queue', now: s.clock(), limit: 5 };
      const wide = search(s.db, q);
      expect(wide.hits.some((h) => h.matched === 1)).toBe(true);
      const narrow = search(s.db, { ...q, postingsBudget: 500, candidates: 30 });
      expect(narrow.hits.map((h) => h.record.id)).toEqual(['two']);
      expect(narrow.terms).toHaveLength(3);
    } finally {
      s.db.close();
      t.cleanup();
    }
  });
});

describe('indexFirst: ranking the index before the filter (the prompt hook)', () => {
  it('gives the exact pool when enough of the best matches are eligible, and falls back when not', async () => {
    const { tempDir } = await import('../../../support/tmp.js');
    const { testStore } = await import('../../../support/store.js');
    const { search } = await import('../../../../src/core/retrieval/search.js');
    const t = tempDir();
    const s = testStore(t.path, 'mine');
    try {
      const ins = s.db.prepare(
        `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source, superseded_at)
         VALUES (?, ?, 'discovery', ?, ?, 'project', 'explicit', '2026-01-01', '2026-01-01', 'import', ?)`,
      );
      const add = (
        n: number,
        prefix: string,
        project: string,
        body: string,
        superseded: string | null = null,
      ) => {
        for (let i = 0; i < n; i++) ins.run(`${prefix}${i}`, project, `ledger note ${i}`, body, superseded);
      };
      // other projects' and superseded records crowd the top: short bodies, dense in the word
      add(200, 'o', 'other', 'ledger ledger ledger');
      add(50, 's', 'mine', 'ledger ledger ledger', '2026-01-02');
      add(40, 'm', 'mine', 'the ledger service, described at some length for the benchmark of this test');
      const q = { projectId: 'mine', query: 'ledger', now: s.clock(), limit: 50, candidates: 30 };
      const exact = search(s.db, q).hits.map((h) => h.record.id);
      expect(exact).toHaveLength(30);
      // 30 wanted, 120 ranked first: all of them others' or superseded, so the filter is joined in
      const crowded = search(s.db, { ...q, indexFirst: true }).hits.map((h) => h.record.id);
      expect(crowded).toEqual(exact);
      expect(crowded.every((id) => id.startsWith('m'))).toBe(true);
      // 105 crowding: the 120 ranked first hold 15 of this project's, a pool smaller than 30 but
      // more than a third of it, taken as it is (the best 15 of the exact pool's records)
      s.db.transaction(() =>
        s.db.prepare("DELETE FROM records WHERE id LIKE 'o%' AND CAST(substr(id, 2) AS INTEGER) >= 55").run(),
      )();
      const smaller = search(s.db, { ...q, indexFirst: true }).hits.map((h) => h.record.id);
      expect(smaller).toHaveLength(15);
      for (const id of smaller) expect(exact).toContain(id);
      // fewer crowding records: the first ranking already holds the eligible ones
      s.db.transaction(() =>
        s.db.prepare("DELETE FROM records WHERE id LIKE 'o%' AND CAST(substr(id, 2) AS INTEGER) >= 20").run(),
      )();
      const roomy = search(s.db, { ...q, indexFirst: true }).hits.map((h) => h.record.id);
      expect(roomy).toEqual(search(s.db, q).hits.map((h) => h.record.id));
    } finally {
      s.db.close();
      t.cleanup();
    }
  });
});
