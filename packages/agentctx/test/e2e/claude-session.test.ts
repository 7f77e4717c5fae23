import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigest, writeDigest } from '../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { Db as Database } from '../../src/database/sqlite.js';
import { isAgentTurn } from '../support/agent-requests.js';
import { CLAUDE_BIN, claudeEnv, gitRepo, runClaude, waitFor } from '../support/claude.js';
import { runAgentctx, runJson } from '../support/cli.js';
import { type FakeApi, type RecordedRequest, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The whole loop with the real Claude Code client: `agentctx init` into a throwaway HOME, then
 * `claude -p` against the fake Messages API. What agentctx injects must arrive in the request
 * bodies claude sends; what the tools do must land in the store.
 */

const DIGEST_MARK = 'DIGEST-MARK-91c2';
const CONVENTION_MARK = 'CONV-MARK-7f3a';
const RUN_MARK = 'E2E-RUN-CHECK';
const WRITE_PATH = 'notes/e2e-findings.md';
const RESUME_PROMPT = 'And how should I name the database migration file for the customers table?';

/**
 * Claude Code's agent turns only (tools[] with its Bash tool): not title generation, not the
 * background extraction that agentctx's Stop hook starts against the same base URL.
 */

function agentTurns(api: FakeApi): RecordedRequest[] {
  return api.requests.filter(isAgentTurn);
}

function toolResultCount(raw: string): number {
  return raw.split('"tool_result"').length - 1;
}

const skip = !CLAUDE_BIN;

describe.skipIf(skip)('agentctx inside a real claude -p session', () => {
  let api: FakeApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let projectId: string;
  let conventionId: string;
  let firstSession: string | null = null;

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (!isAgentTurn(req) || !req.raw.includes(RUN_MARK))
        return { content: [{ type: 'text', text: 'Noted.' }] };
      // The tool loop: a failing shell command, then a file write, then the answer.
      const done = toolResultCount(req.raw);
      if (done === 0)
        return {
          content: [
            {
              type: 'tool_use',
              name: 'Bash',
              input: {
                command: `node -e "console.error('Error: widget exploded during e2e check'); process.exit(1)"`,
                description: 'Run the widget check',
              },
            },
          ],
        };
      if (done === 1)
        return {
          content: [
            {
              type: 'tool_use',
              name: 'Write',
              input: { file_path: join(repo, WRITE_PATH), content: '# Findings\nThe widget check fails.\n' },
            },
          ],
        };
      // A real model takes seconds; the async PostToolUse hooks finish meanwhile.
      return { content: [{ type: 'text', text: 'The widget check fails; notes written.' }], delayMs: 2500 };
    });
    home = tempDir('agentctx-e2e-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/e2e-shop.git');
    writeFileSync(
      join(repo, 'package.json'),
      `${JSON.stringify({ name: 'e2e-shop', scripts: { test: 'vitest run', build: 'tsc -b' } }, null, 2)}\n`,
    );
    env = claudeEnv(home.path, api.url);
    const init = runJson<{ project: { id: string }; settings: { path: string }; mcp: { path: string } }>(
      ['init', '--no-claude-cli'],
      { cwd: repo, env },
    );
    expect(init.code, init.stderr).toBe(0);
    projectId = init.json.project.id;
    expect(existsSync(init.json.settings.path)).toBe(true);
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'convention',
        '--title',
        'Name database migration files with a UTC timestamp prefix',
        '--body',
        `Every database migration file is named <UTC timestamp>_<slug>.sql, for example 202611301200_add_orders.sql; never renumber existing migrations. ${CONVENTION_MARK}`,
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

  it('injects the SessionStart digest and the matching convention into the request body', async () => {
    // A digest as the consolidation pass would write it (ids it shows join the dedup set).
    writeDigest(join(home.path, '.agentctx', 'digests'), projectId, {
      text: `## Project context (agentctx)\n- decision: orders live in Postgres, not SQLite. ${DIGEST_MARK}`,
      ids: [],
      tokens: 30,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(home.path, '.agentctx', 'agentctx.db')).begun,
    });
    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: 'How should I name the new database migration file for the orders table?',
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.result?.is_error).toBe(false);
    firstSession = run.sessionId;
    const turns = agentTurns(api).filter((r) => api.requests.indexOf(r) >= before);
    expect(turns.length).toBeGreaterThan(0);
    const first = turns[0]!;
    expect(first.raw).toContain(DIGEST_MARK);
    expect(first.raw).toContain(CONVENTION_MARK);
    expect(first.raw).toContain(conventionId);
    // never in the top-level system prompt: inside the messages
    expect(JSON.stringify(first.body.system ?? '')).not.toContain(CONVENTION_MARK);
    // the MCP server registered by init is offered to the model: its tools are in tools[] or,
    // with tool search on (claude 2.1.3xx here), listed by name as deferred tools
    expect(first.raw).toContain('mcp__agentctx__ctx_search');
    // self-accounting: the session's injected tokens were counted
    const status = runJson<{ tokens_injected: number }>(['status'], { cwd: repo, env });
    expect(status.json.tokens_injected).toBeGreaterThan(0);
  }, 120_000);

  it('SessionEnd consolidation rewrites the digest; --resume does not inject a record twice', async () => {
    expect(firstSession).toBeTruthy();
    // SessionEnd of the first run started a detached `agentctx consolidate`: it writes the digest
    const digests = join(home.path, '.agentctx', 'digests');
    const composed = await waitFor(
      () => {
        const d = readDigest(digests, projectId);
        return d && !d.text.includes(DIGEST_MARK) ? d : null;
      },
      { timeoutMs: 30_000, what: 'the background consolidation to write the digest' },
    );
    expect(composed.text).toContain('e2e-shop');
    // Put back a digest that does not list the convention, so only the session state can
    // keep the prompt hook from bringing it again.
    writeDigest(digests, projectId, {
      text: `## Project context (agentctx)\n- ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(home.path, '.agentctx', 'agentctx.db')).begun,
    });
    // control: in a session that has not seen it, this prompt does bring the convention
    const control = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: repo,
      env,
      input: JSON.stringify({
        session_id: 'control-session',
        cwd: repo,
        hook_event_name: 'UserPromptSubmit',
        prompt: RESUME_PROMPT,
      }),
    });
    expect(control.stdout).toContain(CONVENTION_MARK);
    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo,
      env,
      resume: firstSession ?? undefined,
      prompt: RESUME_PROMPT,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.sessionId).toBe(firstSession);
    const turns = agentTurns(api).filter((r) => api.requests.indexOf(r) >= before);
    expect(turns.length).toBeGreaterThan(0);
    const raw = turns[0]!.raw;
    // the history carries the first injection once; the new prompt did not add it again
    expect(raw).toContain('customers table');
    expect(raw.split(CONVENTION_MARK).length - 1).toBe(1);
  }, 120_000);

  it('captures a failing Bash command as a bugfix stub and a Write as a file node', async () => {
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: `${RUN_MARK}: run the widget check and write down what you find.`,
      allowedTools: ['Bash', 'Write'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(readFileSync(join(repo, WRITE_PATH), 'utf8')).toContain('widget check fails');
    const dbPath = join(home.path, '.agentctx', 'agentctx.db');
    const bugfix = await waitFor(
      () => {
        const db = new Database(dbPath, { readonly: true, fileMustExist: true });
        try {
          return db
            .prepare(
              `SELECT title, session_id FROM records WHERE project_id = ? AND type = 'bugfix' AND title LIKE '%widget exploded%'`,
            )
            .get(projectId) as { title: string; session_id: string } | undefined;
        } finally {
          db.close();
        }
      },
      { timeoutMs: 20_000, what: 'the bugfix stub from PostToolUse(Failure)' },
    );
    expect(bugfix.title).toMatch(/^Error: widget exploded during e2e check/);
    expect(bugfix.session_id).toBe(run.sessionId);
    const fileNode = await waitFor(
      () => {
        const db = new Database(dbPath, { readonly: true, fileMustExist: true });
        try {
          return db
            .prepare(`SELECT name FROM nodes WHERE project_id = ? AND kind = 'file' AND name LIKE ?`)
            .get(projectId, `%${WRITE_PATH}`) as { name: string } | undefined;
        } finally {
          db.close();
        }
      },
      { timeoutMs: 20_000, what: `the file node of ${WRITE_PATH}` },
    );
    expect(fileNode.name.endsWith(`:file:${WRITE_PATH}`)).toBe(true);
  }, 120_000);

  it('uninstall takes agentctx out of the next session', async () => {
    const un = runAgentctx(['uninstall', '--json'], { cwd: repo, env });
    expect(un.code, un.stderr).toBe(0);
    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: 'How should I name the new database migration file for the orders table?',
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turns = agentTurns(api).filter((r) => api.requests.indexOf(r) >= before);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns) {
      expect(t.raw).not.toContain(CONVENTION_MARK);
      expect(t.raw).not.toContain(DIGEST_MARK);
      expect(t.raw).not.toContain('mcp__agentctx__');
    }
  }, 120_000);
});
