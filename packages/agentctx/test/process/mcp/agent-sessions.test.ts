import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import { isolatedEnv, runAgentctx } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

/**
 * The MCP server knows its session in every agent that names it (shared/agents.ts), so an
 * incognito session refuses writes there too, and what is recorded carries the session:
 * Qwen Code passes QWEN_CODE_SESSION_ID in the server's environment, Codex names the session
 * in each tools/call's `_meta.sessionId`. Another agent's variable (a CLAUDE_CODE_SESSION_ID
 * inherited from a Claude Code session the agent was started in) is not this session.
 */

const t = tempDir('agentctx-mcp-sessions-');
let repo: string;
let base: NodeJS.ProcessEnv;
beforeAll(() => {
  base = isolatedEnv(join(t.path, 'home'));
  repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
});
afterAll(() => t.cleanup());

const fact = (title: string) => ({ type: 'decision', title, body: 'Kept for the session test.' });
function sessionOf(title: string): string | null | undefined {
  const db = openDb(base.AGENTCTX_HOME ? join(base.AGENTCTX_HOME, 'agentctx.db') : '');
  try {
    return (
      db.prepare('SELECT session_id FROM records WHERE title = ?').get(title) as { session_id: string | null }
    )?.session_id;
  } finally {
    db.close();
  }
}

describe('the session an MCP server serves, per agent', () => {
  const servers: McpSession[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
  });
  const start = async (extra: Record<string, string>) => {
    const s = await startMcp(repo, { ...base, ...extra });
    servers.push(s);
    return s;
  };

  it('Qwen Code: QWEN_CODE_SESSION_ID, never an inherited CLAUDE_CODE_SESSION_ID', async () => {
    const qwen = await start({
      AGENTCTX_AGENT: 'qwen',
      QWEN_CODE_SESSION_ID: 'qwen-s1',
      CLAUDE_CODE_SESSION_ID: 'outer-claude',
    });
    const ok = await qwen.call('ctx_record', fact('Qwen writes carry its session'));
    expect(ok.isError, ok.text).toBe(false);
    expect(sessionOf('Qwen writes carry its session')).toBe('qwen-s1');
    expect(runAgentctx(['incognito', '--session', 'qwen-s1'], { cwd: repo, env: base }).code).toBe(0);
    const refused = await qwen.call('ctx_record', fact('Qwen incognito write'));
    expect(refused.isError).toBe(true);
    expect(refused.json.code).toBe('incognito');
    // the Claude Code session the agent was started in is not the agent's session
    expect(runAgentctx(['incognito', '--session', 'outer-claude'], { cwd: repo, env: base }).code).toBe(0);
    const kept = await qwen.call('ctx_record', fact('Qwen write while the outer session is incognito'));
    expect(kept.isError, kept.text).toBe(false);
  });

  it('Codex: the session in each call’s _meta', async () => {
    runAgentctx(['incognito', 'off'], { cwd: repo, env: base });
    const codex = await start({ AGENTCTX_AGENT: 'codex', CLAUDE_CODE_SESSION_ID: 'outer-claude' });
    const callAs = async (sessionId: string, title: string) => {
      const res = await codex.client.callTool({
        name: 'ctx_record',
        arguments: fact(title),
        _meta: { sessionId, threadId: sessionId },
      });
      const text = (res.content as { text: string }[])[0]!.text;
      return { isError: res.isError === true, json: JSON.parse(text) as Record<string, unknown> };
    };
    expect((await callAs('codex-a', 'Codex writes carry its session')).isError).toBe(false);
    expect(sessionOf('Codex writes carry its session')).toBe('codex-a');
    expect(runAgentctx(['incognito', '--session', 'codex-a'], { cwd: repo, env: base }).code).toBe(0);
    const refused = await callAs('codex-a', 'Codex incognito write');
    expect(refused.isError).toBe(true);
    expect(refused.json.code).toBe('incognito');
    // a subagent's thread in the same Codex process is another session
    expect((await callAs('codex-b', 'Codex subagent write')).isError).toBe(false);
    expect(sessionOf('Codex subagent write')).toBe('codex-b');
  });

  it('an agent that names no session: nothing borrowed from Claude Code', async () => {
    runAgentctx(['incognito', '--session', 'outer-claude'], { cwd: repo, env: base });
    const gemini = await start({ AGENTCTX_AGENT: 'gemini', CLAUDE_CODE_SESSION_ID: 'outer-claude' });
    const ok = await gemini.call('ctx_record', fact('Gemini write beside an incognito Claude Code'));
    expect(ok.isError, ok.text).toBe(false);
    expect(sessionOf('Gemini write beside an incognito Claude Code')).toBeNull();
  });
});
