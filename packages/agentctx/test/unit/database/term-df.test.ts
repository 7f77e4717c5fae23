import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resetNamespace } from '../../../src/core/records/reset.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { refreshTermDf, termDfLookup } from '../../../src/database/term-df.js';
import { extractTerms, type QueryTerm } from '../../../src/text/terms.js';
import { testStore } from '../../support/store.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeEach(() => {
  t = tempDir();
  s = testStore(t.path, 'shop');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const WORDS = ['retry', 'retries', 'retrying', 'webhook', 'queue', 'pet', 'pets', 'ledger', 'invoice'];

function addRecords(n: number, from = 0, extra = '', project = 'shop'): void {
  const ins = s.db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
     VALUES (?, ?, 'discovery', ?, ?, 'project', 'explicit', '2026-01-01', '2026-01-01', 'import')`,
  );
  s.db.transaction(() => {
    for (let i = from; i < from + n; i++) {
      const words = WORDS.filter((_, k) => (i + k) % (k + 2) === 0).join(' ');
      ins.run(`r${project}${i}`, project, `note ${i}`, `${words} ${extra}`);
    }
  })();
}

/** What fts5vocab itself says: the reference every lookup must agree with after a rebuild. */
function vocab(term: QueryTerm): number {
  const exact = (w: string) =>
    (s.db.prepare('SELECT doc FROM records_fts_vocab WHERE term = ?').get(w) as { doc: number } | undefined)
      ?.doc ?? 0;
  if (term.forms) return term.forms.reduce((n, f) => n + exact(f), 0);
  const variants = (term.variants ?? []).reduce((n, f) => n + exact(f), 0);
  if (term.prefix)
    return (
      variants +
      (
        s.db
          .prepare('SELECT COALESCE(SUM(doc), 0) AS n FROM records_fts_vocab WHERE term >= ? AND term < ?')
          .get(term.stem, `${term.stem}\u{10FFFF}`) as { n: number }
      ).n
    );
  return variants + exact(term.stem);
}

/** Words whose count in the copy differs from the index's (either side missing counts too). */
function copyDiff(): number {
  return (
    s.db
      .prepare(
        `SELECT COUNT(*) AS n FROM (
           SELECT v.term FROM records_fts_vocab v LEFT JOIN term_df d ON d.term = v.term WHERE d.doc IS NOT v.doc
           UNION ALL
           SELECT d.term FROM term_df d LEFT JOIN records_fts_vocab v ON v.term = d.term WHERE v.term IS NULL)`,
      )
      .get() as { n: number }
  ).n;
}

const copied = () => (s.db.prepare('SELECT COUNT(*) AS n FROM term_df').get() as { n: number }).n;

describe('term_df: document frequencies without walking posting lists', () => {
  it('agrees with fts5vocab for exact words, prefixes and short-word forms', () => {
    addRecords(300);
    const terms = extractTerms('retrying the webhook queue for pets, invoices and the ledger, zebra');
    expect(terms.some((x) => x.prefix)).toBe(true);
    expect(terms.some((x) => x.forms)).toBe(true);
    // "retrying" -> retry*: the records saying "retries" count too
    expect(termDfLookup(s.db)(terms[0]!)).toBeGreaterThan(
      (s.db.prepare("SELECT doc FROM records_fts_vocab WHERE term = 'retrying'").get() as { doc: number })
        .doc +
        (s.db.prepare("SELECT doc FROM records_fts_vocab WHERE term = 'retry'").get() as { doc: number }).doc,
    );
    const before = terms.map((x) => termDfLookup(s.db)(x));
    expect(before).toEqual(terms.map(vocab));
    expect(refreshTermDf(s.db)).toMatchObject({ rebuilt: true });
    expect(copied()).toBeGreaterThan(0);
    expect(terms.map((x) => termDfLookup(s.db)(x))).toEqual(before);
    expect(termDfLookup(s.db)(extractTerms('zebra')[0]!)).toBe(0);
  });

  it('finds words written after the rebuild; the next refresh adds them to the copy', () => {
    addRecords(300);
    refreshTermDf(s.db);
    addRecords(5, 300, 'kraken pet');
    const kraken = extractTerms('kraken')[0]!;
    expect(termDfLookup(s.db)(kraken)).toBe(5); // not in the copy: counted in the index
    expect(refreshTermDf(s.db)).toMatchObject({ rebuilt: true, mode: 'added' });
    expect(copyDiff()).toBe(0);
    expect(refreshTermDf(s.db)).toEqual({ rebuilt: false, terms: -1 }); // nothing new since
  });

  it('after every refresh equals fts5vocab, whatever was inserted, deleted or rewritten between', () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('add' as const),
        n: fc.integer({ min: 1, max: 6 }),
        extra: fc.constantFrom('', 'kraken', 'pet ledger', 'zebra retries'),
      }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('rewrite' as const),
        pick: fc.nat(),
        extra: fc.constantFrom('narwhal', 'queue queue', ''),
      }),
      fc.record({ kind: fc.constant('refresh' as const) }),
    );
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
        s.db.exec('DELETE FROM records; DELETE FROM term_df; DELETE FROM term_df_meta;');
        let next = 0;
        addRecords(40, next);
        next += 40;
        refreshTermDf(s.db);
        for (const o of ops) {
          const ids = s.db.prepare('SELECT id FROM records ORDER BY rowid').pluck().all() as string[];
          if (o.kind === 'add') {
            addRecords(o.n, next, o.extra);
            next += o.n;
          } else if (o.kind === 'delete' && ids.length > 0) {
            s.db.prepare('DELETE FROM records WHERE id = ?').run(ids[o.pick % ids.length]);
          } else if (o.kind === 'rewrite' && ids.length > 0) {
            s.db.prepare('UPDATE records SET body = ? WHERE id = ?').run(o.extra, ids[o.pick % ids.length]);
          } else if (o.kind === 'refresh') {
            refreshTermDf(s.db);
            expect(copyDiff()).toBe(0);
          }
        }
        refreshTermDf(s.db);
        expect(copyDiff()).toBe(0);
      }),
      { seed: 2020, numRuns: 40 },
    );
  });

  it('is cleared by a reset, so counts of deleted records are not used', () => {
    addRecords(300);
    addRecords(50, 0, 'narwhal', 'other');
    refreshTermDf(s.db);
    expect(copied()).toBeGreaterThan(0);
    resetNamespace(s.db, 'other');
    expect(copied()).toBe(0);
    expect(termDfLookup(s.db)(extractTerms('narwhal')[0]!)).toBe(0);
  });

  it('copies whole in short write slices; a delete or rewrite landing between them leaves no mark, and the next run copies again', () => {
    const change = fc.constantFrom('delete' as const, 'rewrite' as const, 'add' as const);
    fc.assert(
      fc.property(change, fc.nat({ max: 40 }), fc.integer({ min: 1, max: 50 }), (kind, at, cap) => {
        s.db.exec('DELETE FROM records; DELETE FROM term_df; DELETE FROM term_df_meta');
        addRecords(120);
        const ids = (s.db.prepare('SELECT id FROM records ORDER BY rowid').all() as { id: string }[]).map(
          (r) => r.id,
        );
        let slices = 0;
        const r = refreshTermDf(
          s.db,
          () => {
            // another writer between two of the copy's transactions (outside them: nothing is held)
            expect(s.db.inTransaction).toBe(false);
            if (slices++ !== at) return;
            if (kind === 'delete') s.db.prepare('DELETE FROM records WHERE id = ?').run(ids[0]);
            if (kind === 'rewrite')
              s.db.prepare("UPDATE records SET body = 'walrus ledger' WHERE id = ?").run(ids[1]);
            if (kind === 'add') addRecords(3, 500, 'walrus');
          },
          { maxMs: Number.POSITIVE_INFINITY, cap, pauseMs: 0 },
        );
        expect(r).toMatchObject({ rebuilt: true, mode: 'full' });
        // no write transaction wrote more than `cap` words: the mark, the slices, the final mark
        expect(slices).toBeGreaterThanOrEqual(2 + Math.ceil(r.terms / cap));
        const marked = s.db.prepare("SELECT value FROM term_df_meta WHERE key = 'built'").get();
        // an addition lies past the mark and is added next run; a delete or rewrite once the
        // "copying" mark is committed (the first call is before it) drops the mark
        if (kind !== 'add' && at >= 1 && at < slices) expect(marked).toBeUndefined();
        else expect(marked).toBeDefined();
        refreshTermDf(s.db, () => {}, { cap, pauseMs: 0 });
        expect(copyDiff()).toBe(0);
        expect(refreshTermDf(s.db)).toEqual({ rebuilt: false, terms: -1 });
      }),
      { seed: 20, numRuns: 30 },
    );
  });

  it('lets the lock go for a pause between two slices of a whole copy: another connection takes it then', () => {
    addRecords(120);
    const other = new Database(join(t.path, 'agentctx.db'), { timeout: 0 });
    let commits = 0;
    const pauses: number[] = [];
    const r = refreshTermDf(s.db, () => commits++, {
      maxMs: Number.POSITIVE_INFINITY,
      cap: 4,
      sleep: (ms) => {
        expect(s.db.inTransaction).toBe(false);
        other.prepare('BEGIN IMMEDIATE').run(); // throws SQLITE_BUSY were the lock held
        other.prepare('ROLLBACK').run();
        pauses.push(ms);
      },
    });
    expect(r).toMatchObject({ rebuilt: true, mode: 'full' });
    // the check, the "copying" mark, then the slices of at most 4 words, a pause between each two
    const slices = commits - 2;
    expect(slices).toBeGreaterThanOrEqual(Math.ceil(r.terms / 4));
    expect(pauses).toEqual(Array.from({ length: slices - 1 }, () => 25));
    expect(copyDiff()).toBe(0);
    other.close();
  });
});
