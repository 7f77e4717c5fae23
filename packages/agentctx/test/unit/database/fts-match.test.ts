import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildMatchExpression, termToFts } from '../../../src/database/fts-match.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { countTerm, extractTerms, textHasTerm } from '../../../src/text/terms.js';
import { hostileQueries } from '../core/retrieval/hostile-queries.js';

/** Query terms as FTS5 reads them: every spelling a term means is found, and no input is syntax. */

describe('y→i inflections ("retries" is searched as retry*, which alone misses "retried")', () => {
  // a base of 4-7 letters ending in a consonant other than l (a final "ly" is a suffix of its own)
  const base = fc
    .tuple(fc.stringMatching(/^[a-z]{3,6}$/), fc.constantFrom(...'bcdfghjkmnprtvz'))
    .map(([head, last]) => head + last)
    .filter((b) => extractTerms(`${b}y ${b}ies`).length === 1);

  it('finds every y/ies/ied/ying spelling from every y/ies/ied query word, in FTS5 and in text', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(body)');
    const ins = db.prepare('INSERT INTO t (rowid, body) VALUES (?, ?)');
    const hits = db.prepare('SELECT rowid FROM t WHERE t MATCH ? ORDER BY rowid');
    fc.assert(
      fc.property(base, (b) => {
        db.exec('DELETE FROM t');
        const texts = [`${b}y`, `${b}ies`, `${b}ied`, `${b}ying`, `${b}ieve`];
        for (const [i, text] of texts.entries()) ins.run(i + 1, `the ${text} now`);
        for (const word of [`${b}y`, `${b}ies`, `${b}ied`]) {
          const [term] = extractTerms(word);
          expect(term, word).toBeDefined();
          const ids = (hits.all(termToFts(term!)) as { rowid: number }[]).map((r) => r.rowid);
          // every inflection, and not the unrelated "-ieve" word a bare "-i" prefix would catch
          expect(ids, word).toEqual([1, 2, 3, 4]);
          for (const text of texts.slice(0, 4)) expect(countTerm(`the ${text} now`, term!), text).toBe(1);
          expect(textHasTerm(`the ${b}ieve now`, term!)).toBe(false);
        }
      }),
      { seed: 19, numRuns: 60 },
    );
    db.close();
  });
});

describe('buildMatchExpression', () => {
  it('quotes every term so that no input is read as FTS5 syntax', () => {
    expect(termToFts({ word: 'a"b', stem: 'a"b', prefix: false })).toBe('"a""b"');
    expect(buildMatchExpression(extractTerms('NEAR title:x AND yak*'))).toBe(
      '"near"* OR "title"* OR ("yak" OR "yaks" OR "yaked" OR "yaking" OR "yakked" OR "yakking")',
    );
    expect(buildMatchExpression([])).toBeNull();
  });

  it('produces an expression FTS5 accepts for 1,000 hostile texts', () => {
    const db = new Database(':memory:');
    db.exec('CREATE VIRTUAL TABLE t USING fts5(title, body)');
    db.prepare('INSERT INTO t VALUES (?, ?)').run('postgres cache', 'redis near title');
    const stmt = db.prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?');
    let nonEmpty = 0;
    for (const q of hostileQueries(1000, 11)) {
      const m = buildMatchExpression(extractTerms(q));
      if (m === null) continue;
      nonEmpty++;
      expect(() => stmt.get(m), JSON.stringify(q).slice(0, 200)).not.toThrow();
    }
    expect(nonEmpty).toBeGreaterThan(500);
    db.close();
  });
});
