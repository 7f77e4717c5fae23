import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #3: A superseded a team decision; B edited the older block by hand; the union merge
 * left two blocks with one key. B's import warned, A's said "1 updated" and A's newer decision
 * went into history without a word. Now both sides see the conflict, both versions are kept
 * until a person chooses in `agentctx review`, and `show` lists the chain in date order.
 * Real git, a bare repository as origin, two HOMEs, the built binary.
 */

let t: ReturnType<typeof tempDir>;
const dev: Record<'a' | 'b', { repo: string; env: NodeJS.ProcessEnv }> = {} as never;

function git(cwd: string, ...args: string[]): string {
  const who = cwd.includes('/b/') ? 'Bea' : 'Ada';
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: who,
    GIT_AUTHOR_EMAIL: `${who}@example.com`,
    GIT_COMMITTER_NAME: who,
    GIT_COMMITTER_EMAIL: `${who}@example.com`,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: cwd,
  };
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

const ax = (who: 'a' | 'b', args: string[]) => runAgentctx(args, { cwd: dev[who].repo, env: dev[who].env });
const aj = <T>(who: 'a' | 'b', args: string[]) => runJson<T>(args, { cwd: dev[who].repo, env: dev[who].env });
const commit = (who: 'a' | 'b', m: string) => {
  git(dev[who].repo, 'add', '.agentctx');
  git(dev[who].repo, 'commit', '-q', '-m', m);
};
const push = (who: 'a' | 'b') => git(dev[who].repo, 'push', '-q', 'origin', 'main');
const pull = (who: 'a' | 'b') =>
  git(dev[who].repo, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Waiting {
  review: { by_kind: { conflict: number } };
}
interface Item {
  key: string;
  kind: string;
  detail: string;
  record_ids: string[];
}

beforeAll(() => {
  t = tempDir('agentctx-conflict-');
  const origin = join(t.path, 'origin.git');
  mkdirSync(origin);
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  const seed = join(t.path, 'a', 'seed');
  mkdirSync(seed, { recursive: true });
  git(seed, 'init', '-q', '-b', 'main');
  writeFileSync(join(seed, 'README.md'), '# shop\n');
  git(seed, 'add', '.');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'remote', 'add', 'origin', origin);
  git(seed, 'push', '-q', 'origin', 'main');
  for (const who of ['a', 'b'] as const) {
    const home = join(t.path, who, 'home');
    mkdirSync(home, { recursive: true });
    dev[who] = { repo: join(t.path, who, 'shop'), env: isolatedEnv(home) };
    git(join(t.path, who), 'clone', '-q', origin, dev[who].repo);
    expect(ax(who, ['consolidate']).code).toBe(0);
  }
}, 60_000);
afterAll(() => t.cleanup());

describe('a team record changed on both sides', () => {
  it('both sides see it, both versions stay until a person chooses, show lists dates in order', async () => {
    const id = aj<{ id: string }>('a', [
      'record',
      '--type',
      'decision',
      '--title',
      'Queue jobs run on Redis',
      '--body',
      'Background jobs use BullMQ on Redis 7.',
    ]).json.id;
    aj('a', ['team', 'export']);
    commit('a', 'A: redis');
    push('a');
    pull('b');
    expect(aj<{ created: unknown[] }>('b', ['team', 'import']).json.created.length).toBeGreaterThan(0);

    // A supersedes and pushes; B, not pulled yet, edits the older block by hand
    await sleep(20);
    aj('a', [
      'supersede',
      id,
      '--body',
      'Background jobs move to Postgres (pg-boss).',
      '--rationale',
      'one less server',
    ]);
    aj('a', ['team', 'export']);
    commit('a', 'A: pg-boss');
    push('a');
    const file = join(dev.b.repo, '.agentctx', 'context.md');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('BullMQ on Redis 7.', 'BullMQ on Redis 7.2, with a sentinel.'),
    );
    commit('b', 'B: sentinel');
    pull('b'); // merged by block: two whole blocks with one key
    expect(readFileSync(file, 'utf8').split('### Queue jobs run on Redis').length - 1).toBe(2);

    const impB = aj<{ conflicts: { choices: string[] }[] }>('b', ['team', 'import']);
    expect(impB.json.conflicts.length).toBe(1);
    const again = ax('b', ['team', 'import']).stdout;
    expect(again).not.toContain('changed on both sides'); // said once
    expect(aj<Waiting>('b', ['status']).json.review.by_kind.conflict).toBe(1);
    // B's export keeps both versions in the file while the conflict waits
    aj('b', ['team', 'export']);
    const exported = readFileSync(file, 'utf8');
    expect(exported).toContain('pg-boss');
    expect(exported).toContain('with a sentinel');
    commit('b', 'B: merged');
    push('b');

    // A pulls: A's import says so too, not just "1 updated"
    pull('a');
    const impA = ax('a', ['team', 'import']);
    expect(impA.code, impA.stderr).toBe(0);
    expect(impA.stdout).toContain('changed on both sides');
    expect(impA.stdout).toContain('agentctx review');
    expect(aj<Waiting>('a', ['status']).json.review.by_kind.conflict).toBe(1);

    // both versions are on A's side: the review item shows each text
    const items = aj<{ items: Item[] }>('a', ['review', '--json', '--kind', 'conflict']).json.items;
    expect(items.length).toBe(1);
    expect(items[0]!.detail).toContain('pg-boss');
    expect(items[0]!.detail).toContain('with a sentinel');

    // the show chain is in date order, whatever order the supersessions ran in
    const shown = aj<{ chain: { valid_from: string }[] }>('a', ['show', items[0]!.record_ids[0]!]).json.chain;
    const dates = shown.map((c) => c.valid_from);
    expect(dates).toEqual([...dates].sort());

    // A chooses its own pg-boss version: it becomes current, the conflict goes on both sides
    const n = items[0]!.detail.split('\n').findIndex((l) => l.includes('pg-boss'));
    const chose = aj<{ result: { kept: string } }>('a', [
      'review',
      '--choose',
      items[0]!.key,
      '--version',
      String(n),
    ]);
    expect(chose.code).toBe(0);
    expect(aj<Waiting>('a', ['status']).json.review.by_kind.conflict).toBe(0);
    const current = aj<{ results: { title: string }[] }>('a', ['search', 'background jobs']).json.results;
    expect(current.length).toBe(1);
    expect(
      aj<{ record: { body: string } }>('a', ['show', chose.json.result.kept]).json.record.body,
    ).toContain('pg-boss');
    aj('a', ['team', 'export']);
    expect(
      readFileSync(join(dev.a.repo, '.agentctx', 'context.md'), 'utf8').split('### Queue jobs').length - 1,
    ).toBe(1);
    commit('a', 'A: chose pg-boss');
    push('a');
    pull('b');
    expect(aj<{ errors: unknown[] }>('b', ['team', 'import']).json.errors).toEqual([]);
    expect(aj<Waiting>('b', ['status']).json.review.by_kind.conflict).toBe(0);
    const onB = aj<{ results: { id: string }[] }>('b', ['search', 'background jobs']).json.results;
    expect(aj<{ record: { body: string } }>('b', ['show', onB[0]!.id]).json.record.body).toContain('pg-boss');
  }, 60_000);
});
