import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAgentTurn, toolNames } from '../support/agent-requests.js';
import { CLAUDE_BIN, claudeEnv, gitRepo, runClaude } from '../support/claude.js';
import { runJson } from '../support/cli.js';
import { type FakeApi, type RecordedRequest, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * A subagent in a real `claude -p` session: the fake model calls the Agent tool, Claude Code
 * starts the subagent, agentctx's SubagentStart hook (registered by `agentctx init`) reads the
 * task from the parent transcript, and the subagent's first request carries the context.
 */

const CONVENTION_MARK = 'SUBAGENT-CONV-5e1d';
const PARENT_MARK = 'PARENT-ASK-9b07';
const TASK = 'Search the repository for how database migration files are named and report the rule';

/** The subagent's requests: its task is the conversation, the parent's prompt is not in it. */
const isSubagentTurn = (r: RecordedRequest) =>
  isAgentTurn(r) && r.raw.includes(TASK) && !r.raw.includes(PARENT_MARK);

describe.skipIf(!CLAUDE_BIN)('SubagentStart inside a real claude -p session', () => {
  let api: FakeApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let conventionId: string;
  /** Claude Code runs subagents in the background unless the call says otherwise. */
  let foreground = false;

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (!isAgentTurn(req)) return { content: [{ type: 'text', text: 'Noted.' }] };
      if (isSubagentTurn(req))
        return { content: [{ type: 'text', text: 'Migrations use a timestamp prefix.' }] };
      const names = toolNames(req);
      const agentTool = names.includes('Agent') ? 'Agent' : 'Task';
      if (!req.raw.includes('"tool_result"'))
        return {
          content: [
            {
              type: 'tool_use',
              name: agentTool,
              input: {
                description: 'Find migration naming',
                prompt: TASK,
                subagent_type: 'general-purpose',
                ...(foreground ? { run_in_background: false } : {}),
              },
            },
          ],
        };
      return { content: [{ type: 'text', text: 'Done.' }] };
    });
    home = tempDir('agentctx-e2e-sub-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/sub-shop.git');
    env = claudeEnv(home.path, api.url);
    const init = runJson<{ settings: { added: string[] } }>(['init', '--no-claude-cli'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.settings.added).toContain('SubagentStart');
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'convention',
        '--title',
        'Database migration files are named with a UTC timestamp prefix',
        '--body',
        `Each database migration file is named <UTC timestamp>_<slug>.sql; never renumber. ${CONVENTION_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    conventionId = rec.json.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  async function delegate(): Promise<RecordedRequest> {
    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: `Delegate a search to a subagent, please. ${PARENT_MARK}`,
      allowedTools: ['Agent', 'Task'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const mine = api.requests.slice(before);
    const sub = mine.filter(isSubagentTurn);
    expect(sub.length, 'the subagent sent no request').toBeGreaterThan(0);
    // the parent's own requests were not given the subagent's block
    const parent = mine.filter((r) => isAgentTurn(r) && r.raw.includes(PARENT_MARK));
    expect(parent.length).toBeGreaterThan(0);
    for (const r of parent) expect(r.raw).not.toContain('bear on this task');
    return sub[0]!;
  }

  it("a background subagent's first request carries the context injected for its task", async () => {
    foreground = false;
    const first = await delegate();
    expect(first.raw).toContain(CONVENTION_MARK);
    expect(first.raw).toContain(conventionId);
    expect(first.raw).toContain('bear on this task');
    expect(JSON.stringify(first.body.system ?? '')).not.toContain(CONVENTION_MARK);
  }, 120_000);

  it('so does a foreground subagent’s (its task is read from the call still waiting)', async () => {
    foreground = true;
    const first = await delegate();
    expect(first.raw).toContain(CONVENTION_MARK);
    expect(first.raw).toContain(conventionId);
  }, 120_000);
});
