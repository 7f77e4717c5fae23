import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { anySecret, type GeneratedSecret, survivingPieces } from '../../support/secret-arbitraries.js';
import { rand } from '../../support/secret-corpus.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 24 #5 through the built binary: what `agentctx record`, `supersede` and `profile edit`
 * are given passes the redaction gate, so no secret comes back out of `search --json`,
 * `show --json`, `export` or the SQLite file, and stderr says what was redacted.
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;

beforeAll(() => {
  t = tempDir('agentctx-redact-');
  env = isolatedEnv(join(t.path, 'home'));
  repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
});
afterAll(() => t.cleanup());

const opts = () => ({ cwd: repo, env });

/** Every text value of every table in the store (FTS shadow tables included). */
function storeText(): string {
  const db = new Database(join(t.path, 'home', '.agentctx', 'agentctx.db'), { readonly: true });
  try {
    const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as {
      name: string;
    }[];
    const parts: string[] = [];
    for (const { name } of names) {
      try {
        for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
          for (const v of Object.values(row))
            if (typeof v === 'string') parts.push(v);
            else if (Buffer.isBuffer(v)) parts.push(v.toString('utf8'));
      } catch {
        // a virtual table whose module is not loaded here
      }
    }
    return parts.join('\n');
  } finally {
    db.close();
  }
}

function record(title: string, body: string, extra: string[] = []) {
  return runJson<{ id: string; redacted?: { count: number; kinds: Record<string, number> } }>(
    ['record', '--type', 'decision', '--title', title, `--body=${body}`, ...extra],
    opts(),
  );
}

describe('agentctx record', () => {
  it('stores no secret, says on stderr what it redacted, and nothing comes back out', () => {
    const gh = `ghp_${rand(36)}`;
    const aws = `AKIA${rand(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`;
    const rec = record(
      'Deploy credentials zqdeploy',
      `Deploys use ${gh} and AWS_ACCESS_KEY_ID=${aws} for now.`,
    );
    expect(rec.code).toBe(0);
    expect(rec.stderr.trim()).toBe(
      'agentctx: redacted 2 secrets (github-token, aws-access-key-id) from the body',
    );
    expect(rec.json.redacted).toEqual({
      count: 2,
      kinds: { 'github-token': 1, 'aws-access-key-id': 1 },
      fields: ['body'],
    });

    const outputs = [
      runAgentctx(['search', 'zqdeploy', '--json'], opts()).stdout,
      runAgentctx(['show', rec.json.id, '--json'], opts()).stdout,
      runAgentctx(['export'], opts()).stdout,
      storeText(),
    ];
    expect(outputs[1]).toContain('[REDACTED:github-token]');
    for (const out of outputs) {
      expect(out).not.toContain(gh.slice(4, 16));
      expect(out).not.toContain(aws.slice(4, 16));
    }
  });

  it('prints nothing on stderr when there is nothing to redact', () => {
    const rec = record(
      'HTTP client',
      'Use undici; commit 3f9a2b1c4d5e6f708192a3b4c5d6e7f801234567 moved it.',
    );
    expect(rec.code).toBe(0);
    expect(rec.stderr).toBe('');
    expect(rec.json.redacted).toBeUndefined();
  });

  it('lets no generated secret of any family out again', () => {
    const samples = fc
      .sample(anySecret, { numRuns: 10, seed: 24051 })
      .filter((s) => s.text.trim() && [...s.text].length <= 1900);
    const ids: [string, GeneratedSecret][] = [];
    for (const [i, s] of samples.entries()) {
      const r = record(`generated zqgen sample ${i}`, s.text);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/^agentctx: redacted \d+ secrets? \(/);
      ids.push([r.json.id, s]);
    }
    const out = [
      runAgentctx(['search', 'zqgen', '--json'], opts()).stdout,
      ...ids.map(([id]) => runAgentctx(['show', id, '--json'], opts()).stdout),
      runAgentctx(['export'], opts()).stdout,
      storeText(),
    ].join('\n');
    for (const [, s] of ids) for (const v of s.secrets) expect(survivingPieces(v, out), s.text).toEqual([]);
  }, 120_000); // some 40 processes: minutes on a loaded machine
});

describe('supersede, profile edit and the user patterns', () => {
  it('supersede redacts body, rationale and title and says so', () => {
    const old = record('Staging database', 'The staging DB is db.internal.');
    const pw = rand(18);
    const res = runJson<{ new_id: string }>(
      [
        'supersede',
        old.json.id,
        `--body=DATABASE_URL=postgres://app:${pw}@db.internal/stage`,
        '--rationale',
        `moved; old token xoxb-1234567890-${rand(24)}`,
      ],
      opts(),
    );
    expect(res.code).toBe(0);
    expect(res.stderr.trim()).toBe(
      'agentctx: redacted 2 secrets (connection-password, slack-token) from the body',
    );
    const shown = runAgentctx(['show', res.json.new_id, '--json'], opts()).stdout;
    expect(shown).not.toContain(pw);
    expect(shown).toContain('postgres://app:[REDACTED:connection-password]@db.internal/stage');
  });

  it('profile edit redacts the corrected entry', () => {
    const pref = runJson<{ id: string }>(
      ['record', '--type', 'preference', '--scope', 'global', '--title', 'Editor', '--body', 'Uses vim.'],
      opts(),
    );
    const key = `sk-ant-api03-${rand(60)}`;
    const res = runJson<{ new_id: string }>(
      ['profile', 'edit', pref.json.id, '--body', `Uses vim; API key ${key}`],
      opts(),
    );
    expect(res.code).toBe(0);
    expect(res.stderr.trim()).toBe('agentctx: redacted 1 secret (anthropic-key) from the body');
    expect(storeText()).not.toContain(key.slice(0, 24));
  });

  it("applies the user's redact.extraPatterns to explicit writes", () => {
    expect(runAgentctx(['config', 'set', 'redact.extraPatterns', '["ACME-[0-9]{6}"]'], opts()).code).toBe(0);
    const rec = record('Ticket', 'Internal reference ACME-483920 for the incident.');
    expect(rec.stderr.trim()).toBe('agentctx: redacted 1 secret (custom) from the body');
    expect(runAgentctx(['show', rec.json.id, '--json'], opts()).stdout).toContain(
      'Internal reference [REDACTED:custom]',
    );
    expect(runAgentctx(['config', 'set', 'redact.extraPatterns', '[]'], opts()).code).toBe(0);
  });
});

describe('exports pass the gate on the way out', () => {
  it('redacts records stored before the gate existed, in export and the profile export', () => {
    const gh = `ghp_${rand(36)}`;
    const ghGlobal = `ghp_${rand(36)}`;
    const projectId = runJson<{ id: string }>(
      ['record', '--type', 'decision', '--title', 'probe', '--body', 'x y'],
      opts(),
    ).json;
    const db = new Database(join(t.path, 'home', '.agentctx', 'agentctx.db'));
    const pid = (
      db.prepare('SELECT project_id FROM records WHERE id = ?').get(projectId.id) as { project_id: string }
    ).project_id;
    const insert = db.prepare(
      `INSERT INTO records (id, project_id, type, title, body, scope, pinned, confidence, reinforce_count,
         valid_from, recorded_at, source, session_id)
       VALUES (?, ?, ?, ?, ?, ?, 0, 'explicit', 0, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 'cli', NULL)`,
    );
    insert.run('01OLDRECORD0000000000000001', pid, 'decision', 'Old note', `token ${gh}`, 'project');
    insert.run(
      '01OLDRECORD0000000000000002',
      '_global',
      'preference',
      'Old pref',
      `my token ${ghGlobal}`,
      'global',
    );
    db.close();

    const exp = runAgentctx(['export'], opts());
    expect(exp.code).toBe(0);
    expect(exp.stdout).not.toContain(gh.slice(4, 16));
    expect(exp.stdout).not.toContain(ghGlobal.slice(4, 16));
    expect(exp.stderr.trim()).toBe('agentctx: redacted 2 secrets (github-token) from the export');

    const out = join(t.path, 'export.md');
    expect(runAgentctx(['export', '--out', out], opts()).code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain(gh.slice(4, 16));

    const prof = runJson<{ path: string }>(['profile', 'export'], opts());
    expect(prof.code).toBe(0);
    expect(readFileSync(prof.json.path, 'utf8')).not.toContain(ghGlobal.slice(4, 16));
    expect(prof.stderr.trim()).toBe('agentctx: redacted 1 secret (github-token) from the export');
    writeFileSync(out, '');
  });
});
