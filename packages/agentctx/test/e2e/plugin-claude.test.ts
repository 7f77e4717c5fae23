import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDigest } from '../../src/core/digest/digest-file.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { Db as Database } from '../../src/database/sqlite.js';
import { isAgentTurn, resultText, toolResults } from '../support/agent-requests.js';
import {
  CLAUDE_BIN,
  claudeEnv,
  gitRepo,
  removeHomeAfterBackground,
  runClaude,
  waitFor,
} from '../support/claude.js';
import { PACKAGE_ROOT, runJson, spawnCollect } from '../support/cli.js';
import { type FakeApi, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The Claude Code plugin with the real client, offline: `claude plugin marketplace add <this
 * repository>` + `claude plugin install agentctx@agentctx` in a throwaway HOME, nothing of ours in
 * any settings file; a session whose SessionStart, prompt, PostToolUse(Failure), Stop and an MCP
 * round trip all run through the plugin's registration; and `claude plugin uninstall` leaving no
 * hook or server behind.
 */

const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');
const DIGEST_MARK = 'PLUGIN-DIGEST-3e1a';
const CONVENTION_MARK = 'PLUGIN-CONV-8b2d';
const RUN_MARK = 'PLUGIN-E2E-RUN';
const PROMPT = 'How should I name the new database migration file for the orders table?';

/** The plugin's MCP tool as Claude Code names it (`mcp__<server id>__ctx_search`), read from a request. */
function mcpSearchTool(raw: string): string | null {
  return /mcp__[A-Za-z0-9_-]*agentctx[A-Za-z0-9_-]*__ctx_search/.exec(raw)?.[0] ?? null;
}

describe.skipIf(!CLAUDE_BIN)('the agentctx plugin installed into a real claude', () => {
  let api: FakeApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let projectId: string;
  let conventionId: string;
  const claude = (args: string[]) =>
    spawnCollect(CLAUDE_BIN as string, args, { cwd: repo, env, timeoutMs: 60_000 });
  const settingsPath = () => join(home.path, '.claude', 'settings.json');

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (!isAgentTurn(req) || !req.raw.includes(RUN_MARK))
        return { content: [{ type: 'text', text: 'Noted.' }] };
      const done = toolResults(req);
      const use = (name: string, input: unknown) => ({
        content: [{ type: 'tool_use' as const, name, input }],
      });
      const tool = mcpSearchTool(req.raw) ?? 'mcp__plugin_agentctx_agentctx__ctx_search';
      if (done.length === 0)
        return use('Bash', {
          command: `node -e "console.error('Error: plugin gizmo failed in e2e'); process.exit(1)"`,
          description: 'Run the gizmo check',
        });
      if (done.length === 1) return use('ToolSearch', { query: `select:${tool}`, max_results: 3 });
      if (done.length === 2) return use(tool, { query: 'database migration file naming' });
      return { content: [{ type: 'text', text: 'Done.' }], delayMs: 2000 };
    });
    home = tempDir('agentctx-plugin-e2e-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/plugin-shop.git');
    env = claudeEnv(home.path, api.url, { CLAUDE_CONFIG_DIR: join(home.path, '.claude') });
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'convention',
        '--title',
        'Name database migration files with a UTC timestamp prefix',
        '--body',
        `Every database migration file is named <UTC timestamp>_<slug>.sql; never renumber. ${CONVENTION_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    conventionId = rec.json.id;
    projectId = runJson<{ project_id: string }>(['status'], { cwd: repo, env }).json.project_id;
    const dbPath = join(home.path, '.agentctx', 'agentctx.db');
    writeDigest(join(home.path, '.agentctx', 'digests'), projectId, {
      text: `## Project context (agentctx)\n- decision: orders live in Postgres. ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(dbPath).begun,
    });
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    if (home) await removeHomeAfterBackground(home.path);
  });

  it('marketplace add + install from the repository path register the plugin, and nothing of ours in settings', async () => {
    const add = await claude(['plugin', 'marketplace', 'add', REPO_ROOT]);
    expect(add.code, `${add.stdout}\n${add.stderr}`).toBe(0);
    const inst = await claude(['plugin', 'install', 'agentctx@agentctx']);
    expect(inst.code, `${inst.stdout}\n${inst.stderr}`).toBe(0);
    const settings = readFileSync(settingsPath(), 'utf8');
    expect(JSON.parse(settings).enabledPlugins).toEqual({ 'agentctx@agentctx': true });
    expect(settings).not.toContain('agentctx hook');
    const claudeJson = join(home.path, '.claude', '.claude.json');
    if (existsSync(claudeJson))
      expect(JSON.parse(readFileSync(claudeJson, 'utf8')).mcpServers?.agentctx).toBeUndefined();
    // status says the plugin is what is active; init sees it and writes nothing
    const status = runJson<{ claude: { active: string } }>(['status'], { cwd: repo, env });
    expect(status.json.claude.active).toBe('plugin');
    const init = runJson<{ plugin: string[]; settings: { changed: boolean }; mcp: { changed: boolean } }>(
      ['init', '--no-claude-cli'],
      { cwd: repo, env },
    );
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.plugin).toEqual(['agentctx@agentctx']);
    expect(init.json.settings.changed || init.json.mcp.changed).toBe(false);
    expect(readFileSync(settingsPath(), 'utf8')).toBe(settings);
  }, 120_000);

  it('SessionStart, the prompt, PostToolUse, Stop and an MCP round trip run through the plugin', async () => {
    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: `${RUN_MARK}: ${PROMPT} Check the gizmo first.`,
      allowedTools: ['Bash', 'ToolSearch', 'mcp__plugin_agentctx_agentctx'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.result?.is_error).toBe(false);
    const turns = api.requests.slice(before).filter(isAgentTurn);
    expect(turns.length).toBeGreaterThanOrEqual(4);
    // SessionStart (the digest) and UserPromptSubmit (the matching convention)
    expect(turns[0]!.raw).toContain(DIGEST_MARK);
    expect(turns[0]!.raw).toContain(CONVENTION_MARK);
    // the MCP round trip: ctx_search's answer came back holding the convention's id
    const last = toolResults(turns[3]!);
    expect(resultText(last[2]!)).toContain(conventionId);
    const dbPath = join(home.path, '.agentctx', 'agentctx.db');
    const query = <T>(sql: string, ...params: unknown[]) => {
      const db = new Database(dbPath, { readonly: true, fileMustExist: true });
      try {
        return db.prepare(sql).get(...params) as T | undefined;
      } finally {
        db.close();
      }
    };
    // PostToolUse(Failure): the failing command became a bugfix stub of this session
    const bugfix = await waitFor(
      () =>
        query<{ session_id: string }>(
          `SELECT session_id FROM records WHERE project_id = ? AND type = 'bugfix' AND title LIKE '%plugin gizmo failed%'`,
          projectId,
        ),
      { timeoutMs: 20_000, what: 'the bugfix stub from the plugin PostToolUse hook' },
    );
    expect(bugfix.session_id).toBe(run.sessionId);
    // Stop: the detached extraction of this session asks the (fake) model about its transcript
    const extraction = await waitFor(
      () =>
        api.requests.find(
          (r) =>
            (r.body.tool_choice as { name?: string } | undefined)?.name === 'record_context' &&
            r.raw.includes(RUN_MARK),
        ),
      { timeoutMs: 30_000, what: 'the extraction request the Stop hook starts' },
    );
    expect(extraction.raw).toContain('plugin gizmo failed');
  }, 120_000);

  it('/agentctx:status hands the model what agentctx status says, naming the plugin', async () => {
    const before = api.requests.length;
    const run = await runClaude({ cwd: repo, env, prompt: '/agentctx:status' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turn = api.requests.slice(before).find(isAgentTurn);
    expect(turn?.raw).toContain('Claude Code plugin agentctx@agentctx');
  }, 120_000);

  it('/agentctx:incognito from inside the session makes it incognito; the next session switches it off', async () => {
    const run = await runClaude({ cwd: repo, env, prompt: '/agentctx:incognito' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.sessionId).toBeTruthy();
    const on = runJson<{ incognito: { session: string | null } | null }>(['status'], { cwd: repo, env });
    expect(on.json.incognito?.session).toBe(run.sessionId);
    // a prompt in that session (resumed) gets nothing injected
    const before = api.requests.length;
    const again = await runClaude({ cwd: repo, env, resume: run.sessionId ?? undefined, prompt: PROMPT });
    expect(again.code, `${again.stdout}\n${again.stderr}`).toBe(0);
    const quiet = api.requests.slice(before).filter(isAgentTurn);
    expect(quiet.length).toBeGreaterThan(0);
    for (const t of quiet) expect(t.raw).not.toContain(CONVENTION_MARK);
    // a new session: incognito is off and the context is back (by now the digest SessionEnd's
    // consolidation wrote lists the convention, so the prompt hook does not repeat it)
    const mid = api.requests.length;
    const next = await runClaude({ cwd: repo, env, prompt: PROMPT });
    expect(next.code, `${next.stdout}\n${next.stderr}`).toBe(0);
    expect(runJson<{ incognito: unknown }>(['status'], { cwd: repo, env }).json.incognito).toBeNull();
    expect(api.requests.slice(mid).filter(isAgentTurn)[0]?.raw).toContain('UTC timestamp prefix');
  }, 120_000);

  it('without agentctx on PATH the session still runs, and the hooks say nothing broken', async () => {
    const bare = { ...env, PATH: [join(process.execPath, '..'), '/usr/bin', '/bin'].join(':') };
    const before = api.requests.length;
    const run = await runClaude({ cwd: repo, env: bare, prompt: PROMPT });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.result?.is_error).toBe(false);
    const turns = api.requests.slice(before).filter(isAgentTurn);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns) expect(t.raw).not.toContain(CONVENTION_MARK);
    // the SessionStart hook's one instruction reached the session (its transcript records it)
    const projects = join(home.path, '.claude', 'projects');
    const transcript = readdirSync(projects)
      .map((d) => join(projects, d, `${run.sessionId}.jsonl`))
      .find((f) => existsSync(f));
    expect(transcript && readFileSync(transcript, 'utf8')).toContain('npm install -g @agentctxhq/agentctx');
  }, 120_000);

  // issue 31 #5: the slash command called `agentctx` itself and printed "command not found"
  it('/agentctx:status without agentctx on PATH hands over the one install line, through the launcher', async () => {
    const bare = { ...env, PATH: [join(process.execPath, '..'), '/usr/bin', '/bin'].join(':') };
    const before = api.requests.length;
    const run = await runClaude({ cwd: repo, env: bare, prompt: '/agentctx:status' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turn = api.requests.slice(before).find(isAgentTurn);
    expect(turn?.raw).toContain('npm install -g @agentctxhq/agentctx');
    expect(turn?.raw).not.toMatch(/command not found|not found: agentctx|agentctx: not found/);
  }, 120_000);

  it('uninstall leaves no hook and no server behind', async () => {
    const un = await claude(['plugin', 'uninstall', 'agentctx@agentctx']);
    expect(un.code, `${un.stdout}\n${un.stderr}`).toBe(0);
    const rm = await claude(['plugin', 'marketplace', 'remove', 'agentctx']);
    expect(rm.code, `${rm.stdout}\n${rm.stderr}`).toBe(0);
    const settings = readFileSync(settingsPath(), 'utf8');
    expect(settings).not.toContain('agentctx@');
    expect(settings).not.toContain('agentctx hook');
    expect(runJson<{ claude: { active: string } }>(['status'], { cwd: repo, env }).json.claude.active).toBe(
      'none',
    );
    const before = api.requests.length;
    const run = await runClaude({ cwd: repo, env, prompt: PROMPT });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turns = api.requests.slice(before).filter(isAgentTurn);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns) {
      expect(t.raw).not.toContain(CONVENTION_MARK);
      expect(t.raw).not.toContain(DIGEST_MARK);
      expect(mcpSearchTool(t.raw)).toBeNull();
    }
  }, 120_000);
});
