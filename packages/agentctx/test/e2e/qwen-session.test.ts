import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/database/open.js';
import { waitFor } from '../support/claude.js';
import { runAgentctx } from '../support/cli.js';
import {
  type FakeChatApi,
  messageTexts,
  type RecordedChatRequest,
  startFakeChatApi,
  toolNames,
} from '../support/fake-chat-api.js';
import { qwenClient, qwenEnv, readJson, runQwen, writeQwenSettings } from '../support/qwen.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * agentctx inside the real Qwen Code CLI (0.24.4, installed on demand), offline against a fake
 * chat-completions API: `agentctx init --agent qwen`, then one `qwen -p` session. The digest
 * must reach the system message, a prompt's matching record the user message, `ctx_search`
 * must answer through Qwen's MCP client, a failing command must be captured, and Stop must
 * leave a handover extracted from Qwen's own chat file.
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

describe('agentctx inside a real qwen -p session', () => {
  let api: FakeChatApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let settingsBefore: string;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    qwenClient(); // installs the client on the first run (outside the session's timeout)
    api = await startFakeChatApi((req) => {
      if (toolNames(req).length === 0) return { type: 'text', text: 'ok' };
      const done = toolMessages(req);
      if (done === 0)
        return {
          type: 'tool_calls',
          calls: [{ name: 'mcp__agentctx__ctx_search', arguments: { query: 'ledger service' } }],
        };
      if (done === 1)
        return {
          type: 'tool_calls',
          calls: [
            {
              name: 'run_shell_command',
              arguments: { command: 'node settle-missing.js', description: 'settle' },
            },
          ],
        };
      // the answer cites the record ctx_search returned, by id (usage evidence: "its id written")
      const id = /\\?"id\\?":\\?"([0-9A-Z]{26})/.exec(JSON.stringify(req.body.messages))?.[1] ?? '';
      return { type: 'text', text: `${ANSWER} (see ${id})` };
    });
    home = tempDir('agentctx-qwen-');
    repo = fakeRepo(home.path, 'shop', 'git@github.com:acme/shop.git');
    env = qwenEnv(home.path, api.url);
    settingsBefore = readFileSync(writeQwenSettings(home.path), 'utf8');
    const init = runAgentctx(['init', '--agent', 'qwen'], { cwd: repo, env });
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
    run = await runQwen({ cwd: repo, env, prompt: PROMPT });
  }, 900_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('init registered the hooks and a trusted MCP server beside the user’s settings', () => {
    const s = readJson(join(home.path, '.qwen', 'settings.json'));
    expect((s.memory as Record<string, unknown>).enableManagedAutoMemory).toBe(false);
    expect(Object.keys(s.hooks as object)).toEqual(
      expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PostToolUseFailure', 'Stop']),
    );
    expect((s.mcpServers as Record<string, Record<string, unknown>>).agentctx?.trust).toBe(true);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger service');
  });

  it('the digest reaches the system message and the matching record the user message', () => {
    const first = turns(api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    const system = messageTexts(first, 'system').join('\n');
    expect(system).toContain('<qwen:session-start-context');
    expect(system).toContain(DECISION);
    const user = messageTexts(first, 'user').join('\n');
    const hookPart = /<qwen:user-prompt-submit-context>([\s\S]*?)<\/qwen:user-prompt-submit-context>/.exec(
      user,
    );
    expect(hookPart?.[1], user.slice(-2000)).toContain(CONVENTION);
    // the digest's record is not injected a second time in the same session
    expect(hookPart?.[1]).not.toContain(DECISION);
  });

  it('ctx_search answers through Qwen’s MCP client', () => {
    const first = turns(api)[0]!;
    expect(toolNames(first)).toContain('mcp__agentctx__ctx_search');
    const second = turns(api)[1]!;
    const toolText = messageTexts(second, 'tool').join('\n');
    expect(toolText).toContain(DECISION);
  });

  it('the failing command is captured and Stop leaves a handover read from Qwen’s chat file', async () => {
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
    // provenance: both were written for qwen's session, and say so
    expect(rows.find((r) => r.type === 'bugfix')?.agent).toBe('qwen');
    expect(handover.agent).toBe('qwen');
    // usage evidence is read from Qwen's chat file: the decision ctx_search returned and the
    // answer cited by id is judged used, not "unused" for want of a reader
    const d = openDb(db);
    try {
      const verdicts = d
        .prepare(
          `SELECT r.title AS title, s.verdict AS verdict FROM session_shown s JOIN records r ON r.id = s.record_id`,
        )
        .all() as { title: string; verdict: string | null }[];
      expect(verdicts.find((v) => v.title === DECISION)?.verdict, JSON.stringify(verdicts)).toBe('used');
    } finally {
      d.close();
    }
    expect(`${handover.title}\n${handover.body}`).toMatch(/ledger service|settle/);
  }, 90_000);

  it('uninstall gives the settings file back byte for byte', () => {
    const r = runAgentctx(['uninstall', '--agent', 'qwen'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(home.path, '.qwen', 'settings.json'), 'utf8')).toBe(settingsBefore);
  });
});
