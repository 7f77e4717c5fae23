import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAgentTurn } from '../support/agent-requests.js';
import { CLAUDE_BIN, claudeEnv, removeHomeAfterBackground, runClaude } from '../support/claude.js';
import { runJson } from '../support/cli.js';
import { type FakeApi, type RecordedRequest, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * Team context through git with the real Claude Code client (issue: team context, v0.3). Two
 * developers (two HOMEs, two clones, a bare repository on disk as origin): A records a decision,
 * exports, commits, pushes; B pulls and imports; B's next `claude -p` session carries the
 * decision in its SessionStart context, and supersedes it there with `ctx_supersede` (the fake
 * Messages API plays the model); B exports and pushes; A pulls and imports: A's search shows
 * only the new fact, and `--as-of` the old one.
 */

const RUN_MARK = 'TEAM-E2E-RUN';
const DECISION = 'Orders are stored in Postgres';
const OLD_MARK = 'OLD-MARK-4b1e';
const NEW_MARK = 'NEW-MARK-9c07';

function toolResultCount(r: RecordedRequest): number {
  return r.raw.split('"tool_result"').length - 1;
}

function git(cwd: string, ...args: string[]): void {
  const r = spawnSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Dev',
      GIT_AUTHOR_EMAIL: 'dev@example.com',
      GIT_COMMITTER_NAME: 'Dev',
      GIT_COMMITTER_EMAIL: 'dev@example.com',
    },
  });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
}

describe.skipIf(!CLAUDE_BIN)('team context between two developers, with the real claude', () => {
  let api: FakeApi;
  let root: ReturnType<typeof tempDir>;
  const home = { a: '', b: '' };
  const repo = { a: '', b: '' };
  const env: { a: NodeJS.ProcessEnv; b: NodeJS.ProcessEnv } = { a: {}, b: {} };
  let bOldId = '';
  let aOldId = '';

  const cli = <T>(who: 'a' | 'b', args: string[]) => {
    const r = runJson<T>(args, { cwd: repo[who], env: env[who] });
    expect(r.code, r.stderr).toBe(0);
    return r.json;
  };

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (!isAgentTurn(req) || !req.raw.includes(RUN_MARK))
        return { content: [{ type: 'text', text: 'Noted.' }] };
      const done = toolResultCount(req);
      const use = (name: string, input: unknown) => ({
        content: [{ type: 'tool_use' as const, name, input }],
      });
      if (done === 0)
        return use('ToolSearch', { query: 'select:mcp__agentctx__ctx_supersede', max_results: 5 });
      if (done === 1)
        return use('mcp__agentctx__ctx_supersede', {
          old_id: bOldId,
          new_body: `The orders service moved to Postgres 16 with logical replication. ${NEW_MARK}`,
          rationale: 'replication for the reporting replica',
        });
      return { content: [{ type: 'text', text: 'Recorded: orders now on Postgres 16.' }] };
    });
    root = tempDir('agentctx-e2e-team-');
    const origin = join(root.path, 'origin.git');
    mkdirSync(origin);
    git(origin, 'init', '-q', '--bare', '-b', 'main');
    const seed = join(root.path, 'seed');
    mkdirSync(seed);
    git(seed, 'init', '-q', '-b', 'main');
    writeFileSync(join(seed, 'README.md'), '# shop\n');
    git(seed, 'add', '.');
    git(seed, 'commit', '-q', '-m', 'init');
    git(seed, 'push', '-q', origin, 'main');
    for (const who of ['a', 'b'] as const) {
      home[who] = join(root.path, who);
      mkdirSync(home[who]);
      repo[who] = join(home[who], 'shop');
      git(home[who], 'clone', '-q', origin, repo[who]);
      env[who] = claudeEnv(home[who], api.url);
      cli(who, ['init', '--no-claude-cli']);
    }
  }, 90_000);

  afterAll(async () => {
    await api?.close();
    for (const who of ['a', 'b'] as const) if (home[who]) await removeHomeAfterBackground(home[who]);
    root?.cleanup();
  });

  it('A shares a decision; B imports it and its next claude session starts with it', async () => {
    aOldId = cli<{ id: string }>('a', [
      'record',
      '--type',
      'decision',
      '--title',
      DECISION,
      '--body',
      `The orders service keeps its data in Postgres 15 (${OLD_MARK}); no SQLite in production.`,
    ]).id;
    cli('a', ['team', 'export']);
    git(repo.a, 'add', '.agentctx');
    git(repo.a, 'commit', '-q', '-m', 'team context');
    git(repo.a, 'push', '-q', 'origin', 'main');

    git(repo.b, 'pull', '-q', '--no-rebase', 'origin', 'main');
    const imp = cli<{ created: { id: string; title: string }[] }>('b', ['team', 'import']);
    expect(imp.created.map((c) => c.title)).toEqual([DECISION]);
    bOldId = imp.created[0]!.id;

    const before = api.requests.length;
    const run = await runClaude({
      cwd: repo.b,
      env: env.b,
      prompt: `Our storage changed: orders are on Postgres 16 now. Update the record. ${RUN_MARK}`,
      allowedTools: ['mcp__agentctx'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turns = api.requests.slice(before).filter((r) => isAgentTurn(r) && r.raw.includes(RUN_MARK));
    expect(turns.length).toBe(3);
    // the SessionStart context of B's session carries A's decision
    expect(turns[0]!.raw).toContain(DECISION);
    expect(turns[0]!.raw).toContain(OLD_MARK);
    // ctx_supersede ran in B's store through the MCP server claude started
    const last = turns[2]!.raw;
    expect(last).toContain('new_id');
    // the session's own handover (written at Stop from the prompt's words) may match too: the
    // supersession is about the decisions, of which exactly one is current
    const hits = cli<{ results: { id: string; title: string; type: string }[] }>('b', [
      'search',
      'orders service postgres',
    ]).results.filter((h) => h.type === 'decision');
    expect(hits.length, JSON.stringify(hits)).toBe(1);
    expect(hits[0]!.id).not.toBe(bOldId);
    const shown = cli<{ record: { body: string; source: string } }>('b', ['show', hits[0]!.id]).record;
    expect(shown.body).toContain(NEW_MARK);
    expect(shown.source).toBe('mcp_tool');
  }, 180_000);

  it('B pushes the change; A pulls and imports: only the new fact now, the old one --as-of', async () => {
    const beforeChange = cli<{ record: { recorded_at: string } }>('a', ['show', aOldId]).record.recorded_at;
    cli('b', ['team', 'export']);
    git(repo.b, 'add', '.agentctx');
    git(repo.b, 'commit', '-q', '-m', 'orders on Postgres 16');
    git(repo.b, 'push', '-q', 'origin', 'main');

    git(repo.a, 'pull', '-q', '--no-rebase', 'origin', 'main');
    const imp = cli<{ updated: { old_id: string }[] }>('a', ['team', 'import']);
    expect(imp.updated.map((u) => u.old_id)).toEqual([aOldId]);
    const now = cli<{ results: { id: string }[] }>('a', ['search', 'orders service postgres']).results;
    expect(now.length).toBe(1);
    expect(cli<{ record: { body: string } }>('a', ['show', now[0]!.id]).record.body).toContain(NEW_MARK);
    const then = cli<{ results: { id: string }[] }>('a', [
      'search',
      'orders service postgres',
      '--as-of',
      beforeChange,
    ]);
    expect(then.results.map((r) => r.id)).toEqual([aOldId]);
  }, 60_000);
});
