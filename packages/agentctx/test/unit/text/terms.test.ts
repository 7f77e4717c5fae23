import { describe, expect, it } from 'vitest';
import { crudeStem, extractTerms, foldText, inflections, textHasTerm } from '../../../src/text/terms.js';

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
