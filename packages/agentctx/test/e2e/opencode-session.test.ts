import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/database/open.js';
import * as s from '../support/agent-session.js';
import { waitFor } from '../support/claude.js';
import { type FakeChatApi, messageTexts, startFakeChatApi, toolNames } from '../support/fake-chat-api.js';
import { opencodeBin, opencodeEnv, runOpencode, writeOpencodeConfig } from '../support/opencode.js';
import { readJson } from '../support/qwen.js';

/**
 * agentctx inside the real OpenCode CLI (1.18.33, installed on demand), offline against a fake
 * chat-completions API: `agentctx init --agent opencode` (its plugin module and `mcp.agentctx`),
 * then one `opencode run`. The digest must reach a system message, a prompt's matching record
 * the user message, `ctx_search` must answer through OpenCode's MCP client, a failing command
 * must be captured, session.idle must leave a handover extracted from the session's messages,
 * and the plugin's dispose at exit must end the session.
 */

describe('agentctx inside a real opencode run', () => {
  const w = s.agentSessionSuite<FakeChatApi>({
    agent: 'opencode',
    install: opencodeBin,
    startApi: () => startFakeChatApi(s.chatSessionScript({ search: 'agentctx_ctx_search', shell: 'bash' })),
    env: (home) => opencodeEnv(home),
    settings: writeOpencodeConfig,
    run: (cwd, env) => runOpencode({ cwd, env, prompt: s.SESSION.prompt }),
  });
  const configDir = () => join(w.home.path, 'xdg', 'config', 'opencode');

  it('init wrote the plugin module and the MCP server beside the user’s config', () => {
    const config = readJson(join(configDir(), 'opencode.json'));
    expect((config.provider as Record<string, unknown>).fake).toBeDefined();
    expect((config.mcp as Record<string, Record<string, unknown>>).agentctx?.command).toEqual([
      'agentctx',
      'mcp',
    ]);
    expect(existsSync(join(configDir(), 'plugin', 'agentctx.js'))).toBe(true);
    expect(w.run.code, w.run.stderr).toBe(0);
    expect(w.run.stdout).toContain('ledger service');
  });

  it('the digest reaches the system message and the matching record the user message', () => {
    const first = s.chatTurns(w.api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    expect(messageTexts(first, 'system').join('\n')).toContain(s.SESSION.decision);
    const user = messageTexts(first, 'user');
    // the prompt as typed, then agentctx's part with the matching record (not the digest's again)
    const ours = user.find((t) => t.includes(s.SESSION.convention));
    expect(ours, user.join('\n---\n').slice(-2000)).toBeDefined();
    expect(ours).not.toContain(s.SESSION.decision);
  });

  it('ctx_search answers through OpenCode’s MCP client', () => {
    expect(toolNames(s.chatTurns(w.api)[0]!)).toContain('agentctx_ctx_search');
    expect(messageTexts(s.chatTurns(w.api)[1]!, 'tool').join('\n')).toContain(s.SESSION.decision);
  });

  it('the failing command is captured and session.idle leaves a handover read from the session’s messages', async () => {
    await s.expectCaptureAndHandover(w.env, 'opencode', 'session.idle');
  }, 90_000);

  it('OpenCode disposing the plugin at exit ends the session and starts consolidation', async () => {
    const paths = resolvePaths(w.env as Record<string, string>);
    const ended = await waitFor(
      () => {
        const d = openDb(paths.db);
        try {
          const r = d.prepare('SELECT session_id FROM sessions WHERE ended_at IS NOT NULL').all() as {
            session_id: string;
          }[];
          return r.length > 0 ? r : false;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 30_000, what: 'the SessionEnd after opencode run exited' },
    );
    expect(ended.map((r) => r.session_id)).toEqual([expect.stringMatching(/^ses_/)]);
    // SessionEnd, and nothing else in this session, starts a consolidation in the background
    const logs = readdirSync(paths.logs)
      .map((f) => readFileSync(join(paths.logs, f), 'utf8'))
      .join('\n');
    expect(logs).toContain('spawned agentctx consolidate');
  }, 60_000);

  it('uninstall gives opencode.json back byte for byte and removes the plugin', () => {
    s.expectUninstallRestores('opencode', w);
    expect(existsSync(join(configDir(), 'plugin'))).toBe(false);
  });
});
