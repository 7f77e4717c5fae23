import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/storage/open.js';
import { waitFor } from '../support/claude.js';
import { runAgentctx } from '../support/cli.js';
import {
  type FakeChatApi,
  messageTexts,
  type RecordedChatRequest,
  startFakeChatApi,
  toolNames,
} from '../support/fake-chat-api.js';
import { opencodeBin, opencodeEnv, runOpencode, writeOpencodeConfig } from '../support/opencode.js';
import { readJson } from '../support/qwen.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * agentctx inside the real OpenCode CLI (1.18.33, installed on demand), offline against a fake
 * chat-completions API: `agentctx init --agent opencode` (its plugin module and `mcp.agentctx`),
 * then one `opencode run`. The digest must reach a system message, a prompt's matching record
 * the user message, `ctx_search` must answer through OpenCode's MCP client, a failing command
 * must be captured, and session.idle must leave a handover extracted from the session's messages.
 */

const DECISION = 'Payments go through the ledger service';
// recorded after the digest was written: only the prompt's search can bring it
const CONVENTION = 'Settlement scripts live in scripts/settle and run with node';
const PROMPT = 'How do payment writes reach the ledger service? Check the settlement script too.';
const ANSWER =
  'Payments keep going through the ledger service; the settlement script is missing and must be restored.';

const turns = (api: FakeChatApi) => api.requests.filter((r) => toolNames(r).length > 0);
const toolMessages = (r: RecordedChatRequest) =>
  (Array.isArray(r.body.messages) ? (r.body.messages as { role?: string }[]) : []).filter(
    (m) => m.role === 'tool',
  ).length;

describe('agentctx inside a real opencode run', () => {
  let api: FakeChatApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let settingsBefore: string;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    opencodeBin(); // installs the client on the first run (outside the session's timeout)
    api = await startFakeChatApi((req) => {
      if (toolNames(req).length === 0) return { type: 'text', text: 'ok' };
      const done = toolMessages(req);
      if (done === 0)
        return {
          type: 'tool_calls',
          calls: [{ name: 'agentctx_ctx_search', arguments: { query: 'ledger service' } }],
        };
      if (done === 1)
        return {
          type: 'tool_calls',
          calls: [
            {
              name: 'bash',
              arguments: { command: 'node settle-missing.js', description: 'settle' },
            },
          ],
        };
      return { type: 'text', text: ANSWER };
    });
    home = tempDir('agentctx-opencode-');
    repo = fakeRepo(home.path, 'shop', 'git@github.com:acme/shop.git');
    env = opencodeEnv(home.path);
    settingsBefore = readFileSync(writeOpencodeConfig(home.path, api.url), 'utf8');
    const init = runAgentctx(['init', '--agent', 'opencode'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const rec = runAgentctx(
      [
        'record',
        '--type',
        'decision',
        '--title',
        DECISION,
        '--body',
        'All payment writes call the ledger service.',
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    const cons = runAgentctx(['consolidate'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(cons.code, cons.stderr).toBe(0);
    const conv = runAgentctx(
      [
        'record',
        '--type',
        'convention',
        '--title',
        CONVENTION,
        '--body',
        'Every settlement script sits in scripts/settle/.',
      ],
      { cwd: repo, env },
    );
    expect(conv.code, conv.stderr).toBe(0);
    run = await runOpencode({ cwd: repo, env, prompt: PROMPT });
  }, 900_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('init wrote the plugin module and the MCP server beside the user’s config', () => {
    const s = readJson(join(home.path, 'xdg', 'config', 'opencode', 'opencode.json'));
    expect((s.provider as Record<string, unknown>).fake).toBeDefined();
    expect((s.mcp as Record<string, Record<string, unknown>>).agentctx?.command).toEqual(['agentctx', 'mcp']);
    expect(existsSync(join(home.path, 'xdg', 'config', 'opencode', 'plugin', 'agentctx.js'))).toBe(true);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger service');
  });

  it('the digest reaches the system message and the matching record the user message', () => {
    const first = turns(api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    expect(messageTexts(first, 'system').join('\n')).toContain(DECISION);
    const user = messageTexts(first, 'user');
    // the prompt as typed, then agentctx's part with the matching record (not the digest's again)
    const ours = user.find((t) => t.includes(CONVENTION));
    expect(ours, user.join('\n---\n').slice(-2000)).toBeDefined();
    expect(ours).not.toContain(DECISION);
  });

  it('ctx_search answers through OpenCode’s MCP client', () => {
    const first = turns(api)[0]!;
    expect(toolNames(first)).toContain('agentctx_ctx_search');
    const second = turns(api)[1]!;
    const toolText = messageTexts(second, 'tool').join('\n');
    expect(toolText).toContain(DECISION);
  });

  it('the failing command is captured and session.idle leaves a handover read from the session’s messages', async () => {
    const db = resolvePaths(env as Record<string, string>).db;
    const rows = await waitFor(
      () => {
        if (!existsSync(db)) return false;
        const d = openDb(db);
        try {
          const r = d.prepare('SELECT type, title, body, agent FROM records ORDER BY recorded_at').all() as {
            type: string;
            title: string;
            body: string;
            agent: string;
          }[];
          return r.some((x) => x.type === 'handover') ? r : false;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 60_000, what: 'the handover extracted after Stop' },
    );
    const bugfix = rows.find((r) => r.type === 'bugfix');
    expect(bugfix?.body).toContain('node settle-missing.js');
    const handover = rows.find((r) => r.type === 'handover')!;
    // provenance: both were written for opencode's session, and say so
    expect(rows.find((r) => r.type === 'bugfix')?.agent).toBe('opencode');
    expect(handover.agent).toBe('opencode');
    expect(`${handover.title}\n${handover.body}`).toMatch(/ledger service|settle/);
  }, 90_000);

  it('OpenCode disposing the plugin at exit ends the session and starts consolidation', async () => {
    const paths = resolvePaths(env as Record<string, string>);
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
    const r = runAgentctx(['uninstall', '--agent', 'opencode'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(home.path, 'xdg', 'config', 'opencode', 'opencode.json'), 'utf8')).toBe(
      settingsBefore,
    );
    expect(existsSync(join(home.path, 'xdg', 'config', 'opencode', 'plugin'))).toBe(false);
  });
});
