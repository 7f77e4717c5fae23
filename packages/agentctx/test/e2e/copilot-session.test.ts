import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/database/open.js';
import { waitFor } from '../support/claude.js';
import { runAgentctx } from '../support/cli.js';
import { copilotClient, copilotEnv, runCopilot } from '../support/copilot.js';
import {
  type FakeChatApi,
  messageTexts,
  type RecordedChatRequest,
  startFakeChatApi,
  toolNames,
} from '../support/fake-chat-api.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * agentctx inside the real GitHub Copilot CLI (1.0.102, installed on demand), offline: its
 * offline mode with a custom provider pointed at a fake chat-completions API, no GitHub
 * sign-in. `agentctx init --agent copilot`, then one `copilot -p` session. The digest must
 * reach the model (sessionStart), a prompt's matching record the prompt (userPromptSubmitted),
 * `ctx_search` must answer through Copilot's MCP client, a failing command must be captured
 * (postToolUse), a subagent's task must get the matching records through its own
 * userPromptSubmitted, and the parent's agentStop (not the subagent's) must leave the handover,
 * extracted from Copilot's events.jsonl.
 */

const DECISION = 'Payments go through the ledger service';
// recorded after the digest was written: only the prompt's search can bring it
const CONVENTION = 'Settlement scripts live in scripts/settle and run with node';
// Copilot runs sessionStart and the first prompt's userPromptSubmitted at the same time
// (measured), so that hook may not yet know what the digest showed: the prompt asks about what
// only the prompt's search can bring (dedup by session id: test/process/hooks/other-agents)
const PROMPT = 'Where do the settlement scripts live, and how are they run?';
const ANSWER =
  'Payments keep going through the ledger service; the settlement script is missing and must be restored.';
/** The user's own MCP file before init: it must come back byte for byte. */
const USER_MCP =
  '{\n  "mcpServers": {\n    "notes": { "type": "local", "command": "notes-mcp", "args": [] }\n  }\n}\n';

/** agentctx's logs of this home, for a failure's message. */
function logsOf(env: NodeJS.ProcessEnv): string {
  const dir = resolvePaths(env as Record<string, string>).logs;
  if (!existsSync(dir)) return '(no logs)';
  return readdirSync(dir)
    .map((f) => `--- ${f}\n${readFileSync(join(dir, f), 'utf8').slice(-3000)}`)
    .join('\n');
}

const TASK = 'Find which settlement script the payments flow should run';
const SUBAGENT_ANSWER = 'No settlement script exists yet; scripts/settle is empty.';

/** The parent's requests (it alone is offered `task`) and the explore subagent's. */
const turns = (api: FakeChatApi) => api.requests.filter((r) => toolNames(r).includes('task'));
const subagentTurns = (api: FakeChatApi) =>
  api.requests.filter((r) => toolNames(r).length > 0 && !toolNames(r).includes('task'));
const toolMessages = (r: RecordedChatRequest) =>
  (Array.isArray(r.body.messages) ? (r.body.messages as { role?: string }[]) : []).filter(
    (m) => m.role === 'tool',
  ).length;

describe('agentctx inside a real copilot -p session', () => {
  let api: FakeChatApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    copilotClient(); // installs the client on the first run (outside the session's timeout)
    api = await startFakeChatApi((req) => {
      if (toolNames(req).length === 0) return { type: 'text', text: 'ok' };
      if (!toolNames(req).includes('task')) return { type: 'text', text: SUBAGENT_ANSWER };
      const done = toolMessages(req);
      if (done === 0)
        return {
          type: 'tool_calls',
          calls: [{ name: 'agentctx-ctx_search', arguments: { query: 'ledger service' } }],
        };
      if (done === 1)
        return {
          type: 'tool_calls',
          calls: [{ name: 'bash', arguments: { command: 'node settle-missing.js', description: 'settle' } }],
        };
      if (done === 2)
        return {
          type: 'tool_calls',
          calls: [
            {
              name: 'task',
              arguments: {
                agent_type: 'explore',
                description: 'find the script',
                prompt: TASK,
                name: 'finder',
              },
            },
          ],
        };
      // the answer cites the record ctx_search returned, by id (usage evidence: "its id written")
      const id = /\\?"id\\?":\\?"([0-9A-Z]{26})/.exec(JSON.stringify(req.body.messages))?.[1] ?? '';
      return { type: 'text', text: `${ANSWER} (see ${id})` };
    });
    home = tempDir('agentctx-copilot-');
    repo = fakeRepo(home.path, 'shop', 'git@github.com:acme/shop.git');
    env = copilotEnv(home.path, api.url);
    mkdirSync(join(home.path, '.copilot'), { recursive: true });
    writeFileSync(join(home.path, '.copilot', 'mcp-config.json'), USER_MCP);
    const init = runAgentctx(['init', '--agent', 'copilot'], { cwd: repo, env });
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
    run = await runCopilot({ cwd: repo, env, prompt: PROMPT });
  }, 900_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('init registered the hooks in a file of their own and the MCP server beside the user’s', () => {
    const hooks = JSON.parse(readFileSync(join(home.path, '.copilot', 'hooks', 'agentctx.json'), 'utf8'));
    expect(Object.keys(hooks.hooks)).toEqual(
      expect.arrayContaining([
        'sessionStart',
        'userPromptSubmitted',
        'postToolUse',
        'agentStop',
        'sessionEnd',
      ]),
    );
    const mcp = JSON.parse(readFileSync(join(home.path, '.copilot', 'mcp-config.json'), 'utf8'));
    expect(Object.keys(mcp.mcpServers)).toEqual(['notes', 'agentctx']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger service');
  });

  it('the digest reaches the model at session start and the matching record with the prompt', () => {
    const first = turns(api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    const users = messageTexts(first, 'user');
    // sessionStart's context arrives as a user message of its own, before the prompt
    const digest = users.find((u) => u.includes('from agentctx'));
    expect(digest, users.join('\n---\n').slice(0, 2000)).toContain(DECISION);
    const prompt = users.find((u) => u.includes(PROMPT))!;
    const hookPart = /<system_reminder>([\s\S]*?)<\/system_reminder>/.exec(prompt);
    expect(hookPart?.[1], prompt.slice(-2000)).toContain(CONVENTION);
  });

  it('ctx_search answers through Copilot’s MCP client', () => {
    const first = turns(api)[0]!;
    expect(toolNames(first)).toContain('agentctx-ctx_search');
    const second = turns(api)[1]!;
    expect(messageTexts(second, 'tool').join('\n')).toContain(DECISION);
  });

  it('the subagent’s task gets the matching record through its own prompt hook, not the digest', () => {
    const sub = subagentTurns(api)[0]!;
    expect(sub, 'no subagent request').toBeDefined();
    const users = messageTexts(sub, 'user');
    expect(
      users.some((u) => u.includes('from agentctx')),
      'a subagent never gets the digest',
    ).toBe(false);
    const task = users.find((u) => u.includes(TASK))!;
    // its own dedup set: the parent was shown the convention, the subagent was not
    expect(/<system_reminder>([\s\S]*?)<\/system_reminder>/.exec(task)?.[1], task).toContain(CONVENTION);
  });

  it('the failing command is captured and agentStop leaves a handover read from events.jsonl', async () => {
    const db = resolvePaths(env as Record<string, string>).db;
    const rows = await waitFor(
      () => {
        if (!existsSync(db)) return false;
        const d = openDb(db);
        try {
          const r = d
            .prepare('SELECT type, title, body, agent, session_id FROM records ORDER BY recorded_at')
            .all() as { type: string; title: string; body: string; agent: string; session_id: string }[];
          return r.some((x) => x.type === 'handover') ? r : false;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 120_000, what: () => `the handover extracted after agentStop\n${logsOf(env)}` },
    );
    const bugfix = rows.find((r) => r.type === 'bugfix');
    expect(bugfix?.body).toContain('node settle-missing.js');
    expect(bugfix?.agent).toBe('copilot');
    const handover = rows.find((r) => r.type === 'handover')!;
    expect(handover.agent).toBe('copilot');
    // the parent's session (the folder of its events.jsonl), not the subagent's: a subagent's
    // agentStop names the parent's file under its own id and must not extract it
    const sessions = readdirSync(join(home.path, '.copilot', 'session-state')).filter(
      (f) => !f.startsWith('.'),
    );
    expect(sessions).toHaveLength(1);
    expect(handover.session_id).toBe(sessions[0]);
    expect(rows.filter((r) => r.type === 'handover')).toHaveLength(1);
    expect(`${handover.title}\n${handover.body}`).toMatch(/ledger service|settle/);
    // usage evidence read from events.jsonl (judged after the extraction's writes): the decision
    // ctx_search returned and the answer cited by id is judged used
    let last: { title: string; verdict: string | null }[] = [];
    const verdicts = await waitFor(
      () => {
        const d = openDb(db);
        try {
          const v = d
            .prepare(
              'SELECT r.title AS title, s.verdict AS verdict FROM session_shown s JOIN records r ON r.id = s.record_id',
            )
            .all() as { title: string; verdict: string | null }[];
          // each extraction judges again (a verdict may move from unused to used once the
          // session's last events are on disk): wait for the one this session earns
          last = v;
          return v.find((x) => x.title === DECISION)?.verdict === 'used' ? v : false;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 30_000, what: () => `the decision judged used (last seen: ${JSON.stringify(last)})` },
    );
    expect(verdicts.find((v) => v.title === DECISION)?.verdict, JSON.stringify(verdicts)).toBe('used');
  }, 180_000);

  it('uninstall removes its hook file and gives the MCP file back byte for byte', () => {
    const r = runAgentctx(['uninstall', '--agent', 'copilot'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(home.path, '.copilot', 'hooks', 'agentctx.json'))).toBe(false);
    expect(readFileSync(join(home.path, '.copilot', 'mcp-config.json'), 'utf8')).toBe(USER_MCP);
  });
});
