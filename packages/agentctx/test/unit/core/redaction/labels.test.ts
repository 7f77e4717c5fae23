import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import { random, survivingPieces } from '../../../support/secret-arbitraries.js';

/**
 * Issue 24 #6: a label between a secret's name and its value (`the token: MY_SERVICE_KEY:
 * 5352…`) took the redaction while the value stayed; and a 40-hex `private_key_id` passed as a
 * git SHA. The label decides what a value is: after a key's name it is a secret, after
 * `commit`/`sha` it is an object id.
 */

const HEX = '0123456789abcdef';

describe('a label in front of a value does not save the value', () => {
  it.each([
    [
      'the token: MY_SERVICE_KEY: 5352a8f09c1d7e3b2a4f6c8d0e1f2a3b4c5d6e7f',
      'the token: MY_SERVICE_KEY: [REDACTED:secret]',
    ],
    ['the token: MY_SERVICE_KEY: 53528877665544332211', 'the token: MY_SERVICE_KEY: [REDACTED:secret]'],
    ['password: DB_MAIN: Xk29dLq8Zp3mW7', 'password: DB_MAIN: [REDACTED:secret]'],
    ['secret: PROD=Zq8Wm2Lk9Xc4Vb7N', 'secret: PROD=[REDACTED:secret]'],
    ['PASSWORD=abc=def12345678', 'PASSWORD=[REDACTED:secret]'],
  ])('%s', (input, expected) => {
    expect(redactSecrets(input)).toBe(expected);
  });

  it('holds for generated names, labels and values', () => {
    const name = fc.constantFrom('token', 'the token', 'password', 'API_KEY', 'client_secret');
    const label = fc.constantFrom('MY_SERVICE_KEY', 'PROD', 'primary', 'DB_MAIN', 'value');
    const value = fc.oneof(
      random('0123456789', 16, 24),
      random(`${HEX}ABCDEF`, 20, 40),
      random('ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789', 14, 40),
    );
    const sep = fc.constantFrom(': ', ':\t', ' : ', '=');
    fc.assert(
      fc.property(name, label, value, sep, fc.constantFrom(': ', ':\n  '), (n, l, v, s1, s2) => {
        const text = `${n}${s1}${l}${s2}${v}`;
        const out = redactSecrets(text);
        expect(survivingPieces(v, out), `${text} → ${out}`).toEqual([]);
      }),
      { seed: 2406, numRuns: 400 },
    );
  });
});

describe('a 40-hex value: the label decides', () => {
  const sha = 'c3f9a2b1c4d5e6f708192a3b4c5d6e7f80123456';
  it.each([
    `"private_key_id": "${sha}"`,
    `private_key_id: ${sha}`,
    `SIGNING_KEY=${sha}`,
    `signingKey: ${sha}`,
    `const webhookSecret = ${sha};`,
    `the api key: ${sha}`,
  ])('secret after a key name: %s', (text) => {
    const out = redactSecrets(text);
    expect(out).not.toContain(sha.slice(0, 12));
    expect(out).toContain('[REDACTED:');
  });
  it.each([
    `commit ${sha} (HEAD -> main)`,
    `"sha": "${sha}"`,
    `parent: ${sha}`,
    `git show ${sha}`,
    `commit_sha=${sha}`,
    `keyCommit: ${sha}`,
    `tokenizer revision ${sha}`,
  ])('an object id elsewhere: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});

describe('an id-like name keeps its value only when it names an id as a whole word', () => {
  const v = 'aZ3x9QpL7mW2vB8nR4tY6uK1sD5fG0hJ';
  it.each([`headerToken: ${v}`, `hmacHashKey = "${v}"`, `treeshakeSecret: ${v}`])('secret: %s', (text) => {
    expect(redactSecrets(text)).not.toContain(v);
  });
  it.each([`keyCommit: ${v}`, `tokenizer_revision: ${v}`, `signing_key_version: ${v}`])('id: %s', (text) => {
    expect(redactSecrets(text)).toBe(text);
  });
});
