import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import {
  BENIGN_FAMILIES,
  SECRET_FAMILIES,
  survivingPieces,
  withNoise,
} from '../../../support/secret-arbitraries.js';

/**
 * The figures behind docs/RELIABILITY.md "Secrets": per family, how many generated secrets were
 * caught whole, and how many benign random-looking texts (SHAs, ids, hashes, images, paths)
 * the redactor changed. Seeded, so every run prints the same table.
 */

const SAMPLES = 2000;
const SEED = 20240524;
const rows: string[] = [];

afterAll(() => {
  console.log(
    `\nredaction figures (${SAMPLES} generated samples per family, seed ${SEED})\n${rows.join('\n')}`,
  );
});

describe('secrets caught, per family', () => {
  it.each(Object.keys(SECRET_FAMILIES))('%s', (family) => {
    const samples = fc.sample(withNoise(SECRET_FAMILIES[family]!), { numRuns: SAMPLES, seed: SEED });
    const leaked = samples.filter((s) => {
      const out = redactSecrets(s.text);
      return s.secrets.some((v) => survivingPieces(v, out).length > 0);
    });
    rows.push(`secret  ${family.padEnd(24)} leaked ${leaked.length}/${samples.length}`);
    expect(leaked.map((s) => s.text)).toEqual([]);
  });
});

/** The false-positive rate each benign family may not exceed (most must stay at zero). */
const CEILING: Record<string, number> = {};

describe('benign text left alone, per family', () => {
  it.each(Object.keys(BENIGN_FAMILIES))('%s', (family) => {
    const samples = fc.sample(BENIGN_FAMILIES[family]!, { numRuns: SAMPLES, seed: SEED });
    const changed = samples.filter((t) => redactSecrets(t) !== t);
    const rate = changed.length / samples.length;
    rows.push(
      `benign  ${family.padEnd(24)} changed ${changed.length}/${samples.length} (${(rate * 100).toFixed(2)}%)${changed[0] ? `  e.g. ${JSON.stringify(changed[0]).slice(0, 90)}` : ''}`,
    );
    expect(rate).toBeLessThanOrEqual(CEILING[family] ?? 0);
  });
});
