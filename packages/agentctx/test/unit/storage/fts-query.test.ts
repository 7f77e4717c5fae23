import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import {
  buildMatchExpression,
  crudeStem,
  dateHint,
  extractTerms,
  foldText,
  inDateHint,
  inflections,
  termToFts,
  textHasTerm,
} from '../../../src/storage/fts-query.js';
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
