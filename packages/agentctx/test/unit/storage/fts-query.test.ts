import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildMatchExpression,
  countTerm,
  crudeStem,
  dateHint,
  extractTerms,
  foldText,
  inDateHint,
  inflections,
  termToFts,
  textHasTerm,
} from '../../../src/storage/fts-query.js';
import { Db as Database } from '../../../src/storage/sqlite.js';
import { hostileQueries } from '../core/retrieval/hostile-queries.js';

describe('extractTerms', () => {
  it('keeps the words that carry meaning, lower-cased and de-duplicated', () => {
    const terms = extractTerms('How do we store the user SESSIONS now? sessions!');
    expect(terms.map((t) => t.stem)).toEqual(['store', 'user', 'session']);
  });

  it('drops words whose stem is a stop-word ("likely" -> "like")', () => {
    expect(extractTerms('would she likely enjoy it').map((t) => t.stem)).toEqual(['enjoy']);
  });

  it('searches short words by their regular inflections and longer ones by stem prefix', () => {
    const [pet, camping] = extractTerms('pets camping');
    expect(pet?.forms).toEqual(expect.arrayContaining(['pet', 'pets']));
    expect(camping).toMatchObject({ stem: 'camp', prefix: true });
    expect(inflections('hik')).toContain('hiks');
    expect(crudeStem('pursuing')).toBe('pursu');
    expect(crudeStem('pursue')).toBe('pursu');
    expect(crudeStem('hiking')).toBe('hike');
  });

  it('matches terms at word starts only', () => {
    const [t] = extractTerms('cache');
    expect(textHasTerm('the caches are warm', t!)).toBe(true);
    expect(textHasTerm('mustache wax', t!)).toBe(false);
  });
});

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

describe('the ASCII fast path', () => {
  it('folds exactly as NFKC + lower-case would, with or without non-ASCII text', () => {
    const samples = [
      'Plain ASCII, with CAPS & 123',
      'Ｆｕｌｌｗｉｄｔｈ ＡＢＣ',
      'Ça été — “quoted”',
      'ﬁle ligature',
      '漢字 MIX',
      '',
    ];
    for (const s of samples) expect(foldText(s)).toBe(s.normalize('NFKC').toLowerCase());
  });
  it('finds the same words in ASCII and in text that needs the Unicode classes', () => {
    expect(extractTerms('Retry the WEBHOOK queue').map((t) => t.stem)).toEqual(['retry', 'webhook', 'queue']);
    expect(extractTerms('Retry the ＷＥＢＨＯＯＫ queue—naïve café').map((t) => t.stem)).toEqual([
      'retry',
      'webhook',
      'queue',
      'naïve',
      'café',
    ]);
  });
  it('treats non-ASCII letters next to a match as part of the word', () => {
    const term = { word: 'caf', stem: 'caf', prefix: false };
    expect(textHasTerm(foldText('un café noir'), term)).toBe(false);
    expect(textHasTerm(foldText('caf—noir'), term)).toBe(true);
    expect(textHasTerm('caf9', term)).toBe(false);
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

describe('dateHint', () => {
  it('reads a month, a month with a year, and a year', () => {
    expect(dateHint('what did we decide in March?')).toEqual({ month: 2 });
    expect(dateHint('the outage of June 2024')).toEqual({ month: 5, year: 2024 });
    expect(dateHint('releases in 2025')).toEqual({ year: 2025 });
    expect(dateHint('what changed in May')).toEqual({ month: 4 });
  });

  it('ignores the modal "may" and texts without a period', () => {
    expect(dateHint('may I use redis here')).toBeNull();
    expect(dateHint('port 2025 is taken')).toBeNull();
  });

  it('tests an ISO date against the period', () => {
    expect(inDateHint('2025-03-14T10:00:00Z', { month: 2 })).toBe(true);
    expect(inDateHint('2025-03-14T10:00:00Z', { month: 2, year: 2024 })).toBe(false);
    expect(inDateHint('not a date', { year: 2025 })).toBe(false);
  });
});
