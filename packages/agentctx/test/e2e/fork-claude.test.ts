import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigest, writeDigest } from '../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { isAgentTurn } from '../support/agent-requests.js';
import {
  CLAUDE_BIN,
  claudeEnv,
  gitRepo,
  removeHomeAfterBackground,
  runClaude,
  waitFor,
} from '../support/claude.js';
import { runJson } from '../support/cli.js';
import { type FakeApi, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * SessionStart `fork` with the real client: `claude --resume <id> --fork-session` starts a new
 * session id whose history is the parent's, injections included. Measured with 2.1.332: the
 * payload names no parent. What the copied history already shows — the digest, the records a
 * prompt brought — must not be injected into the fork a second time.
 */

const DIGEST_MARK = 'FORK-DIGEST-61d0';
const CONVENTION_MARK = 'FORK-CONV-2b9e';

const count = (raw: string, needle: string) => raw.split(needle).length - 1;

describe.skipIf(!CLAUDE_BIN)('a forked session', () => {
  let api: FakeApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let projectId: string;
  const putDigest = () =>
    writeDigest(join(home.path, '.agentctx', 'digests'), projectId, {
      text: `## Project context (agentctx)\n- decision: orders live in Postgres. ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(home.path, '.agentctx', 'agentctx.db')).begun,
    });

  beforeAll(async () => {
    api = await startFakeApi(() => ({ content: [{ type: 'text', text: 'Noted.' }] }));
    home = tempDir('agentctx-fork-e2e-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/fork-shop.git');
    env = claudeEnv(home.path, api.url);
    const init = runJson<{ project: { id: string } }>(['init', '--no-claude-cli'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const rec = runJson(
      [
        'record',
        '--type',
        'convention',
        '--title',
        'Name database migration files with a UTC timestamp prefix',
        '--body',
        `Every database migration file is named <UTC timestamp>_<slug>.sql. ${CONVENTION_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    projectId = init.json.project.id;
    putDigest();
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    if (home) await removeHomeAfterBackground(home.path);
  });

  it('the fork sees the digest and the convention once, from the copied history', async () => {
    const first = await runClaude({
      cwd: repo,
      env,
      prompt: 'How should I name the new database migration file for the orders table?',
    });
    expect(first.code, `${first.stdout}\n${first.stderr}`).toBe(0);
    // SessionEnd's consolidation rewrites the digest; once it has, put the same one back, so the
    // fork's SessionStart has exactly what the copied history already holds
    const digests = join(home.path, '.agentctx', 'digests');
    await waitFor(() => !readDigest(digests, projectId)?.text.includes(DIGEST_MARK), {
      timeoutMs: 30_000,
      what: 'the background consolidation to write the digest',
    });
    putDigest();
    const before = api.requests.length;
    const fork = await runClaude({
      cwd: repo,
      env,
      resume: first.sessionId ?? undefined,
      prompt: 'And the database migration file for the customers table?',
      extraArgs: ['--fork-session'],
    });
    expect(fork.code, `${fork.stdout}\n${fork.stderr}`).toBe(0);
    expect(fork.sessionId).not.toBe(first.sessionId);
    const turn = api.requests.slice(before).find(isAgentTurn);
    expect(turn?.raw).toContain('customers table');
    expect(count(turn!.raw, DIGEST_MARK)).toBe(1);
    expect(count(turn!.raw, CONVENTION_MARK)).toBe(1);
  }, 120_000);
});
