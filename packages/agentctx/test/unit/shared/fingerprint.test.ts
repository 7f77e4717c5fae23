import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { changedShare, fingerprint, lazyFingerprint, SKETCH } from '../../../src/shared/fingerprint.js';

const line = fc.string({ minLength: 1, maxLength: 12 }).filter((s) => s.trim() !== '' && !s.includes('\n'));

function jaccardDistance(a: string[], b: string[]): number {
  const norm = (xs: string[]) => new Set(xs.map((x) => x.replace(/\s+$/, '')).filter(Boolean));
  const sa = norm(a);
  const sb = norm(b);
  const union = new Set([...sa, ...sb]);
  if (union.size === 0) return 0;
  let both = 0;
  for (const x of sa) if (sb.has(x)) both++;
  return 1 - both / union.size;
}

describe('file fingerprints', () => {
  it('the same text gives the same fingerprint; one changed character changes the hash', () => {
    fc.assert(
      fc.property(fc.array(line, { maxLength: 40 }), line, (lines, extra) => {
        const text = lines.join('\n');
        expect(fingerprint(text)).toEqual(fingerprint(text));
        const lazy = lazyFingerprint(text);
        expect({ hash: lazy.hash, lines: lazy.lines, sketch: lazy.sketch }).toEqual(fingerprint(text));
        expect(fingerprint(`${text}\n${extra}x`).hash).not.toBe(fingerprint(text).hash);
      }),
      { seed: 18, numRuns: 200 },
    );
  });

  it('the estimated share of changed lines is exact for small files, symmetric, 0 for the same file', () => {
    const small = fc.uniqueArray(line, { maxLength: SKETCH / 2 });
    fc.assert(
      fc.property(small, small, (a, b) => {
        const fa = fingerprint(a.join('\n')).sketch;
        const fb = fingerprint(b.join('\n')).sketch;
        expect(changedShare(fa, fa)).toBe(0);
        expect(changedShare(fa, fb)).toBeCloseTo(changedShare(fb, fa), 10);
        // exact unless two distinct lines share a 32-bit hash (not in these runs)
        expect(changedShare(fa, fb)).toBeCloseTo(jaccardDistance(a, b), 10);
      }),
      { seed: 19, numRuns: 200 },
    );
  });

  it('estimates the share for large files within a reasonable error', () => {
    const base = Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i * 7};`);
    const edited = base.map((l, i) => (i % 4 === 0 ? `${l} // changed` : l));
    const est = changedShare(fingerprint(base.join('\n')).sketch, fingerprint(edited.join('\n')).sketch);
    expect(est).toBeGreaterThan(0.2);
    expect(est).toBeLessThan(0.6); // true value 1 − 1500/2500 = 0.4
  });
});
