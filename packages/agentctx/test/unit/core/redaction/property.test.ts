import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import {
  anySecret,
  type GeneratedSecret,
  SECRET_FAMILIES,
  survivingPieces,
  withNoise,
} from '../../../support/secret-arbitraries.js';

/**
 * The engine's promise, over generated input: whatever family, label, quotes, separator, line
 * breaks and noise, no 12-character piece of a secret survives, and redacting again changes
 * nothing.
 */

function leaked(s: GeneratedSecret, out: string): string[] {
  return s.secrets.flatMap((v) => survivingPieces(v, out));
}

describe('generated secrets never survive the engine', () => {
  it.each(Object.keys(SECRET_FAMILIES))('%s', (family) => {
    fc.assert(
      fc.property(withNoise(SECRET_FAMILIES[family]!), (s) => {
        // the check can fail: the raw text holds the secret
        expect(leaked(s, s.text).length).toBeGreaterThan(0);
        const out = redactSecrets(s.text);
        expect(leaked(s, out), `${JSON.stringify(s.text)}\n→ ${JSON.stringify(out)}`).toEqual([]);
        expect(redactSecrets(out)).toBe(out);
      }),
      { seed: 240524, numRuns: 500 },
    );
  });

  it('mixed: several secrets in one text', () => {
    fc.assert(
      fc.property(
        fc.array(anySecret, { minLength: 2, maxLength: 5 }),
        fc.constantFrom('\n', ' ', '\n\n'),
        (xs, sep) => {
          const text = xs.map((s) => s.text).join(sep);
          const out = redactSecrets(text);
          for (const s of xs)
            expect(leaked(s, out), `${JSON.stringify(text)}\n→ ${JSON.stringify(out)}`).toEqual([]);
        },
      ),
      { seed: 240525, numRuns: 500 },
    );
  });
});
