import { describe, expect, it } from 'vitest';
import {
  compileExtraPatterns,
  createRedactor,
  redactDeep,
  redactorFor,
  redactSecrets,
} from '../../../../src/core/redaction/redact.js';
import { entropy } from '../../../../src/core/redaction/secret-values.js';
import { leaks, rand, secretCorpus } from '../../../support/secret-corpus.js';

const r = redactSecrets;

describe('secret corpus', () => {
  const corpus = secretCorpus();
  it('has at least 50 samples over every family', () => {
    expect(corpus.length).toBeGreaterThanOrEqual(50);
    expect(new Set(corpus.map((s) => s.family)).size).toBeGreaterThanOrEqual(15);
  });
  it.each(corpus.map((s) => [s.family, s.marker, s] as const))('%s %s: redacted', (_f, _m, sample) => {
    // the detector sees the raw secret (so the check can fail) and not the redacted one
    expect(leaks([sample], sample.line)).toHaveLength(sample.secrets.length);
    const out = r(sample.line);
    expect(leaks([sample], out)).toEqual([]);
    expect(out).toContain('[REDACTED:');
    // the rest of the line stays readable
    expect(r(`${sample.marker} ${sample.line}`).startsWith(sample.marker)).toBe(true);
  });
  it('is idempotent: redacting twice changes nothing', () => {
    for (const s of corpus) {
      const once = r(s.line);
      expect(r(once)).toBe(once);
    }
  });
});

describe('pattern families, with their placeholder types', () => {
  const cases: [string, string, string][] = [
    ['anthropic', `key sk-ant-api03-${rand(80)}`, 'key [REDACTED:anthropic-key]'],
    ['openai project', `OPENAI_API_KEY=sk-proj-${rand(48)}`, 'OPENAI_API_KEY=[REDACTED:openai-key]'],
    ['openai legacy', `sk-${rand(48)}`, '[REDACTED:openai-key]'],
    [
      'aws key id',
      `id AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}.`,
      'id [REDACTED:aws-access-key-id].',
    ],
    ['aws secret', `aws_secret_access_key=${rand(40)}`, 'aws_secret_access_key=[REDACTED:aws-secret-key]'],
    ['github', `token ghp_${rand(36)} ok`, 'token [REDACTED:github-token] ok'],
    ['github pat', `github_pat_${rand(70)}`, '[REDACTED:github-token]'],
    ['slack', `xoxb-1234-5678-${rand(24)}`, '[REDACTED:slack-token]'],
    ['stripe', `sk_live_${rand(40)}`, '[REDACTED:stripe-key]'],
    ['stripe publishable', `pk_live_${rand(40)}`, '[REDACTED:stripe-key]'],
    ['google', `AIza${rand(35)}`, '[REDACTED:google-api-key]'],
    ['jwt', `t=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${rand(43)} end`, 't=[REDACTED:jwt] end'],
    [
      'bearer header',
      `Authorization: Bearer ${rand(30)}`,
      'Authorization: Bearer [REDACTED:bearer-credentials]',
    ],
    [
      'basic header',
      `authorization: Basic ${rand(24)}==`,
      'authorization: Basic [REDACTED:basic-credentials]',
    ],
    ['bare bearer', `Bearer ${rand(30)}`, 'Bearer [REDACTED:bearer-token]'],
    ['env assignment', 'PASSWORD=hunter2', 'PASSWORD=[REDACTED:secret]'],
    ['json assignment', '"client_secret": "abc def 123"', '"client_secret": "[REDACTED:secret]"'],
    ['yaml assignment', 'db_password: s3cret-value', 'db_password: [REDACTED:secret]'],
    ['cli flag', 'tool --token abc123xyz run', 'tool --token [REDACTED:secret] run'],
    ['cli flag =', 'tool --api-key=abc123xyz', 'tool --api-key=[REDACTED:secret]'],
    [
      'postgres',
      'postgres://app:pw1234@db:5432/x',
      'postgres://app:[REDACTED:connection-password]@db:5432/x',
    ],
    [
      'mongodb+srv',
      'mongodb+srv://u:p4ss@c.mongodb.net/db',
      'mongodb+srv://u:[REDACTED:connection-password]@c.mongodb.net/db',
    ],
    ['redis no user', 'redis://:pw12345@cache:6379', 'redis://:[REDACTED:connection-password]@cache:6379'],
    ['amqp', 'amqp://guest:gpw99@rabbit/', 'amqp://guest:[REDACTED:connection-password]@rabbit/'],
    [
      'high entropy near a key name',
      `const hmacKey = "${'aZ3x9QpL7mW2vB8nR4tY6uK1'}"`,
      'const hmacKey = "[REDACTED:high-entropy]"',
    ],
    [
      'pem block',
      '-----BEGIN RSA PRIVATE KEY-----\nMIIEow\nAbCd==\n-----END RSA PRIVATE KEY----- after',
      '[REDACTED:private-key] after',
    ],
    [
      'pem cut short (no END line)',
      '-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQ…',
      '[REDACTED:private-key]…',
    ],
    [
      'pem cut short inside twice-escaped JSON (tool output holding a service-account file)',
      '{"stdout":"{\\"private_key\\":\\"-----BEGIN PRIVATE KEY-----\\\\nQDicXZuBQK8Dk168GnnZokYB669CDIVEBV0\\\\nPXIhysAfRn9NkbmXppBqrozws7Y0hirDNs',
      '{"stdout":"{\\"private_key\\":\\"[REDACTED:private-key]',
    ],
    ['curl -u', 'curl -u deploy:pw9876 https://x', 'curl -u deploy:[REDACTED:basic-auth] https://x'],
  ];
  it.each(cases)('%s', (_name, input, expected) => {
    expect(r(input)).toBe(expected);
  });

  it('catches a prefixed token cut short by the transcript reader', () => {
    expect(r(`ran with ghp_${rand(14)}…`)).toBe('ran with [REDACTED:github-token]…');
    expect(r(`key sk-ant-api03-${rand(10)}…`)).toBe('key [REDACTED:anthropic-key]…');
  });
});

describe('no false positives on ordinary code and prose', () => {
  const keep = [
    'Record 01JD7X3K9QZ8M4N5P6R7S8T9VW was superseded by 01JD7X3K9QZ8M4N5P6R7S8T9VX.',
    'commit 3f9a2b1c4d5e6f708192a3b4c5d6e7f801234567 (HEAD -> main)',
    'git show 3f9a2b1 and git log --oneline abc1234..def5678',
    'session 123e4567-e89b-12d3-a456-426614174000 ended',
    '"session_id": "c19aa40c-6935-4ef1-b64f-1ade4c80fa46"',
    'sessionId: 01JD7X3K9QZ8M4N5P6R7S8T9VW',
    'edit /home/dev/project/src/auth/token-store.ts and ./src/core/secret-scan.ts',
    'PWD=/home/dev/project',
    'keyPath: src/core/redact.ts',
    'git@github.com:acme/shop.git and https://github.com/acme/shop/pull/12',
    'const token = options.token;',
    'const password = input.value;',
    'password: string;',
    'function login(password: string, token?: string) {}',
    'let tokens = estimateTokens(text); max_tokens: 4096',
    'tokenizer: cl100k_base',
    'password_hash = bcrypt(pw)',
    'if (secret === undefined) throw new Error("missing secret")',
    'const apiKey = process.env.ANTHROPIC_API_KEY;',
    'api_key = os.environ["API_KEY"]',
    'DATABASE_URL=${DATABASE_URL}',
    'password: ${DB_PASSWORD}',
    'Token: the user must sign in first. The secret: we cache it.',
    'The API key is stored in the keychain; rotate the token monthly.',
    'We use pnpm, not npm; run `npm_config_cache=/tmp/x pnpm i`.',
    'skip the sk-learn import, it is scikit-learn',
    'task-ant-colony and ask-anthropic-docs',
    'author: Jane Doe',
    'See https://example.com/docs?page=2&sort=asc for details.',
    'sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 is the empty hash',
    'Bearer tokens go in the Authorization header.',
    'Authorization: Bearer ${TOKEN}',
    'The base64 of hello is aGVsbG8= and that is fine.',
    'import { createHash } from "node:crypto"; const key = createHash("sha1");',
    'Migration 3 adds extraction_state (transcript offsets) and extraction_costs (daily LLM spend).',
  ];
  it.each(keep)('%s', (text) => {
    expect(r(text)).toBe(text);
  });
});

describe('user patterns from config', () => {
  it('adds valid patterns as [REDACTED:custom] and reports invalid or empty-matching ones', () => {
    const { rules, errors } = compileExtraPatterns(['ACME-[0-9]{6}', '(unclosed', 'a*', 42]);
    expect(rules).toHaveLength(1);
    expect(errors.map((e) => e.pattern)).toEqual(['(unclosed', 'a*', '42']);
    expect(errors[0]!.error).toMatch(/Unterminated group|Invalid/);
    expect(errors[1]!.error).toBe('matches the empty string');
    const red = createRedactor(rules);
    expect(red('ticket ACME-123456 and ghp_abcdefghijklmnop1234')).toBe(
      'ticket [REDACTED:custom] and [REDACTED:github-token]',
    );
  });
  it('never throws on a malformed setting', () => {
    expect(redactorFor('not a list').errors).toHaveLength(1);
    expect(redactorFor(undefined).errors).toHaveLength(0);
    expect(redactorFor(undefined).redact('PASSWORD=abc123')).toBe('PASSWORD=[REDACTED:secret]');
  });
});

describe('helpers', () => {
  it('redactDeep keeps the shape of a model answer', () => {
    const v = redactDeep(
      { decisions: [{ what: `use ghp_${rand(36)}`, n: 3, ok: true, none: null }], list: ['PASSWORD=x1y2z3'] },
      r,
    );
    expect(v).toEqual({
      decisions: [{ what: 'use [REDACTED:github-token]', n: 3, ok: true, none: null }],
      list: ['PASSWORD=[REDACTED:secret]'],
    });
  });
  it('entropy: random strings score high, words low', () => {
    expect(entropy(rand(32))).toBeGreaterThan(4);
    expect(entropy('aaaaaaaaaaaaaaaa')).toBe(0);
  });
});
