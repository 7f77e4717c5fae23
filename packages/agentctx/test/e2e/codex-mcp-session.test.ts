import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../src/database/open.js';
import { gitRepo } from '../support/claude.js';
import { BIN, runAgentctx, spawnCollect } from '../support/cli.js';
import { CODEX_BIN, codexEnv, runCodexExec, writeCodexConfig } from '../support/codex.js';
import {
  type FakeResponsesApi,
  type RecordedResponsesRequest,
  startFakeResponsesApi,
  turnRequests,
} from '../support/fake-responses-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The session an MCP server serves, with the real Codex CLI: Codex gives its MCP servers no
 * session variable, but names the session in each tools/call's `_meta`. A ctx_record made
 * through Codex's MCP client carries the session Codex printed, and in an incognito session
 * (armed from the shell, bound by the SessionStart hook) the same call is refused.
 */

const STORED = 'Codex MCP writes name their session';
const HIDDEN = 'Codex incognito writes are refused';

function outputOf(req: RecordedResponsesRequest): string {
  const input = Array.isArray(req.body.input) ? (req.body.input as Record<string, unknown>[]) : [];
  return input
    .filter((i) => i.type === 'function_call_output')
    .map((i) => JSON.stringify(i.output ?? ''))
    .join('\n');
}

describe.skipIf(!CODEX_BIN)('the MCP server knows the Codex session', () => {
  let api: FakeResponsesApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let dataHome: string;

  beforeAll(async () => {
    api = await startFakeResponsesApi((req) => {
      if (turnRequests(api).indexOf(req) < 0) return [{ type: 'text', text: '{"title":"session"}' }];
      const title = req.raw.includes('incognito please') ? HIDDEN : STORED;
      if (!outputOf(req))
        return [
          {
            type: 'function_call',
            namespace: 'mcp__agentctx',
            name: 'ctx_record',
            arguments: { type: 'decision', title, body: 'Written through Codex MCP client.' },
          },
        ];
      return [{ type: 'text', text: 'Recorded.' }];
    });
    home = tempDir('agentctx-codex-mcp-session-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/codex-mcp.git');
    dataHome = join(home.path, 'agentctx-data');
    env = codexEnv(home.path, { AGENTCTX_HOME: dataHome, CLAUDE_CODE_SESSION_ID: 'outer-claude-session' });
    writeCodexConfig(env.CODEX_HOME as string, api.url, [repo]);
    const init = await spawnCollect(process.execPath, [BIN, 'init', '--agent', 'codex', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(init.code, init.stderr).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  const stored = (title: string) => {
    const db = openDb(join(dataHome, 'agentctx.db'));
    try {
      return db.prepare('SELECT session_id, agent FROM records WHERE title = ?').get(title) as
        | { session_id: string | null; agent: string }
        | undefined;
    } finally {
      db.close();
    }
  };

  it('a ctx_record through Codex carries the session Codex names', async () => {
    const run = await runCodexExec({ cwd: repo, env, prompt: 'Record the rule.', timeoutMs: 60_000 });
    expect(run.code, run.stderr).toBe(0);
    const session = /session id: ([0-9a-f-]{36})/.exec(run.stderr)?.[1];
    expect(session, run.stderr).toBeDefined();
    expect(stored(STORED)).toEqual({ session_id: session, agent: 'codex' });
  }, 90_000);

  it('an incognito Codex session has its ctx_record refused', async () => {
    expect(runAgentctx(['incognito'], { cwd: repo, env }).code).toBe(0);
    const run = await runCodexExec({
      cwd: repo,
      env,
      prompt: 'Record it, incognito please.',
      timeoutMs: 60_000,
    });
    expect(run.code, run.stderr).toBe(0);
    const answered = turnRequests(api).map(outputOf).join('\n');
    expect(answered).toContain('this session is incognito');
    expect(stored(HIDDEN)).toBeUndefined();
  }, 90_000);
});
