import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { leakedPieces } from '../../support/legacy-store.js';

/** The helper the scrub tests trust: its rolling-hash scan finds what cutting every window finds. */
function naive(secrets: string[], text: string, anyCase: boolean): string[] {
  const found = new Set<string>();
  const hay = anyCase ? [text, text.toLowerCase()] : [text];
  for (const v of secrets) {
    if (v.length <= 12) {
      if (text.includes(v) || (anyCase && text.toLowerCase().includes(v.toLowerCase()))) found.add(v);
      continue;
    }
    for (let i = 0; i + 12 <= v.length; i++) {
      const p = v.slice(i, i + 12);
      if (hay.some((h) => h.includes(p) || (anyCase && h.includes(p.toLowerCase())))) found.add(p);
    }
  }
  return [...found].sort();
}

describe('leakedPieces', () => {
  it('finds exactly the pieces a window-by-window scan finds', () => {
    const alphabet = fc.constantFrom(...'abAB01-_ \u00e9\u{1F600}'.split(''));
    const str = (max: number) => fc.array(alphabet, { maxLength: max }).map((a) => a.join(''));
    fc.assert(
      fc.property(
        fc.array(str(30), { maxLength: 4 }),
        str(200),
        fc.boolean(),
        fc.nat(),
        (secrets, noise, anyCase, at) => {
          // plant part of a secret in the text, sometimes
          const s = secrets[0] ?? '';
          const cut = at % 200;
          const text = noise.slice(0, cut) + s.slice(at % 7) + noise.slice(cut);
          const got = leakedPieces([{ family: 'x', text: '', secrets }], text, anyCase).sort();
          expect(got).toEqual(naive(secrets, text, anyCase));
        },
      ),
      { numRuns: 300 },
    );
  });
});
