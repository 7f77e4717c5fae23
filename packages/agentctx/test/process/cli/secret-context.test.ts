import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { SECRET_FAMILIES, survivingPieces } from '../../support/secret-arbitraries.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #1 end to end: a record body held an AWS access key id, its 40-character secret key
 * right after it, and a GitHub token; the id and the token went, the secret key stayed in
 * `records` and in the full-text index. Through the built CLI: nothing of it is left in any
 * answer, the records, the index's terms or the file.
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
});
afterAll(() => t.cleanup());

describe('a secret kept by its neighbours, through the CLI', () => {
  it('the reported body and generated ones leave nothing behind', () => {
    const secret = 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY';
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    const samples = [
      {
        text: `Deploy creds: AKIAIOSFODNN7EXAMPLE ${secret} and ${token}`,
        secrets: ['AKIAIOSFODNN7EXAMPLE', secret, token],
      },
      ...fc.sample(SECRET_FAMILIES['secret-by-context']!, { numRuns: 8, seed: 31 }),
    ];
    samples.forEach((s, i) => {
      const r = runAgentctx(['record', '--type', 'discovery', '--title', `Creds ${i}`, '--body', s.text], {
        cwd: repo,
        env,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/redacted \d+ secrets?/);
    });
    expect(
      runAgentctx(['record', '--type', 'discovery', '--title', 'Creds first', '--body', samples[0]!.text], {
        cwd: repo,
        env,
      }).stderr,
    ).toMatch(/redacted 3 secrets \((?=[^)]*aws-access-key-id)(?=[^)]*github-token)(?=[^)]*aws-secret-key)/);
    const answers = [
      runAgentctx(['search', 'creds', '--json', '--limit', '50'], { cwd: repo, env }).stdout,
      runAgentctx(['export'], { cwd: repo, env }).stdout,
    ];
    const db = openDb(join(t.path, '.agentctx', 'agentctx.db'));
    let stored = '';
    try {
      stored = JSON.stringify(db.prepare('SELECT title, body FROM records').all());
      stored += JSON.stringify(db.prepare("SELECT term FROM records_fts_vocab WHERE term != ''").all());
      db.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      db.close();
    }
    const raw = readFileSync(join(t.path, '.agentctx', 'agentctx.db')).toString('latin1');
    for (const s of samples)
      for (const v of s.secrets) {
        for (const where of [...answers, stored, raw]) expect(survivingPieces(v, where)).toEqual([]);
        // the index keeps words lower-cased
        expect(survivingPieces(v.toLowerCase(), stored.toLowerCase())).toEqual([]);
      }
    expect(
      runJson<{ results: unknown[] }>(['search', 'creds'], { cwd: repo, env }).json.results.length,
    ).toBeGreaterThan(0);
  });
});
