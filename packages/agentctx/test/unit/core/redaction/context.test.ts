import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import { BENIGN_FAMILIES } from '../../../support/benign-arbitraries.js';
import { SECRET_FAMILIES, survivingPieces, withNoise } from '../../../support/secret-arbitraries.js';

/**
 * Issue 31 #1: a 40-character AWS secret access key written right after its key id stayed in
 * the record and the index while the id and a GitHub token beside it were redacted. A value
 * with no label of its own is judged by its neighbours: an access key id, a provider's name, a
 * connection string, a `NAME=` line.
 */

const SECRET = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';

describe('secrets by their neighbours', () => {
  it('the reported body: key id, secret key and token all go', () => {
    const out = redactSecrets(`deploy creds: AKIAIOSFODNN7EXAMPLE ${SECRET} ghp_${'a1B2c3D4e5'.repeat(4)}`);
    expect(out).toBe(
      'deploy creds: [REDACTED:aws-access-key-id] [REDACTED:aws-secret-key] [REDACTED:github-token]',
    );
  });

  it.each([
    [`AKIAIOSFODNN7EXAMPLE:${SECRET}`, '[REDACTED:aws-access-key-id]:[REDACTED:aws-secret-key]'],
    [`AWS: ${SECRET}`, 'AWS: [REDACTED:provider-key]'],
    [
      `s3://AKIAIOSFODNN7EXAMPLE:${SECRET}@backups/db`,
      's3://[REDACTED:aws-access-key-id]:[REDACTED:connection-password]@backups/db',
    ],
    [
      'Server=db;Uid=sa;Pwd=Xk29dLq8Zp3mW7;Encrypt=yes',
      'Server=db;Uid=sa;Pwd=[REDACTED:connection-secret];Encrypt=yes',
    ],
    [`PROD_UPLOADS=${SECRET}`, 'PROD_UPLOADS=[REDACTED:env-secret]'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('no piece of a generated secret survives in any of those contexts', () => {
    fc.assert(
      fc.property(withNoise(SECRET_FAMILIES['secret-by-context']!), (s) => {
        const out = redactSecrets(s.text);
        for (const v of s.secrets) expect(survivingPieces(v, out)).toEqual([]);
      }),
      { numRuns: 1000 },
    );
  });

  it('what stands in the same places and is not a secret stays', () => {
    for (const family of ['near-key-ids-and-providers', 'benign-connection-strings', 'benign-env-lines']) {
      fc.assert(
        fc.property(BENIGN_FAMILIES[family]!, (t) => {
          expect(redactSecrets(t)).toBe(t);
        }),
        { numRuns: 500 },
      );
    }
  });
});
