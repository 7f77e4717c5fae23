import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

/**
 * The MCP server in an incognito session (Claude Code passes the session id in
 * CLAUDE_CODE_SESSION_ID): ctx_record and ctx_supersede refuse with a clear error and store
 * nothing, searching still works; the same server records again once incognito is off.
 */

describe('agentctx mcp in an incognito session', () => {
  const t = tempDir('agentctx-mcp-incognito-');
  let env: NodeJS.ProcessEnv;
  let repo: string;
  let mcp: McpSession;
  const count = () =>
    Object.values(
      runJson<{ counts: Record<string, number> }>(['status'], { cwd: repo, env }).json.counts,
    ).reduce((a, b) => a + b, 0);

  beforeAll(async () => {
    env = isolatedEnv(join(t.path, 'home'), { CLAUDE_CODE_SESSION_ID: 'quiet-mcp' });
    repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
    mcp = await startMcp(repo, env);
  });
  afterAll(async () => {
    await mcp?.close();
    t.cleanup();
  });

  it('refuses writes while this session is incognito, and records for any other session', async () => {
    const fact = { type: 'decision', title: 'Queue retries back off', body: 'Exponential, capped at 60 s.' };
    const kept = await mcp.call('ctx_record', fact);
    expect(kept.isError, kept.text).toBe(false);
    const before = count();
    expect(runAgentctx(['incognito', '--session', 'quiet-mcp'], { cwd: repo, env }).code).toBe(0);
    const refused = await mcp.call('ctx_record', { ...fact, title: 'Queue retries do not back off' });
    expect(refused.isError).toBe(true);
    expect(refused.json.code).toBe('incognito');
    const sup = await mcp.call('ctx_supersede', {
      old_id: kept.json.id,
      new_body: 'Linear, 5 s steps.',
      rationale: 'The queue owner changed it.',
    });
    expect(sup.isError).toBe(true);
    expect(sup.json.code).toBe('incognito');
    expect(count()).toBe(before);
    const search = await mcp.call('ctx_search', { query: 'queue retries' });
    expect(search.isError, search.text).toBe(false);
    expect(search.text).toContain(String(kept.json.id));
    // another session's incognito does not concern this one
    expect(runAgentctx(['incognito', '--session', 'someone-else'], { cwd: repo, env }).code).toBe(0);
    const again = await mcp.call('ctx_record', {
      ...fact,
      type: 'convention',
      title: 'Retry helpers live in lib/retry',
    });
    expect(again.isError, again.text).toBe(false);
    expect(count()).toBe(before + 1);
  });
});
