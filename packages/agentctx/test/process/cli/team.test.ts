import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Team context through git, with the built binary and real git: two developers (two HOMEs,
 * two clones) and a bare repository on disk as `origin`.
 */

let t: ReturnType<typeof tempDir>;
let origin: string;
const dev: Record<'a' | 'b', { home: string; repo: string; env: NodeJS.ProcessEnv }> = {} as never;

function git(cwd: string, ...args: string[]): string {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...gitEnv(cwd) } });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed in ${cwd}: ${r.stderr}${r.stdout}`);
  return r.stdout;
}

function gitEnv(cwd: string): Record<string, string> {
  const who = cwd.includes('/b/') ? 'Bea' : 'Ada';
  return {
    GIT_AUTHOR_NAME: who,
    GIT_AUTHOR_EMAIL: `${who.toLowerCase()}@example.com`,
    GIT_COMMITTER_NAME: who,
    GIT_COMMITTER_EMAIL: `${who.toLowerCase()}@example.com`,
    GIT_CONFIG_NOSYSTEM: '1',
    HOME: cwd,
  };
}

const ax = (who: 'a' | 'b', args: string[]) => runAgentctx(args, { cwd: dev[who].repo, env: dev[who].env });
const aj = <T>(who: 'a' | 'b', args: string[]) => runJson<T>(args, { cwd: dev[who].repo, env: dev[who].env });

function commitAndPush(who: 'a' | 'b', message: string): void {
  git(dev[who].repo, 'add', '.agentctx');
  git(dev[who].repo, 'commit', '-q', '-m', message);
  git(dev[who].repo, 'push', '-q', 'origin', 'main');
}

function pull(who: 'a' | 'b'): void {
  git(dev[who].repo, 'pull', '-q', '--no-rebase', '--no-edit', 'origin', 'main');
}

function hookInput(who: 'a' | 'b'): string {
  return JSON.stringify({
    session_id: `s-${who}-${Date.now()}`,
    cwd: dev[who].repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
}

function hookContext(who: 'a' | 'b'): string {
  const res = runAgentctx(['hook', 'session-start'], {
    cwd: dev[who].repo,
    env: dev[who].env,
    input: hookInput(who),
  });
  expect(res.code).toBe(0);
  if (!res.stdout.trim()) return '';
  return (JSON.parse(res.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput
    .additionalContext;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(() => {
  t = tempDir('agentctx-team-');
  origin = join(t.path, 'origin.git');
  mkdirSync(origin);
  git(origin, 'init', '-q', '--bare', '-b', 'main');
  for (const who of ['a', 'b'] as const) {
    const home = join(t.path, who, 'home');
    mkdirSync(home, { recursive: true });
    dev[who] = { home, repo: join(t.path, who, 'shop'), env: isolatedEnv(home) };
  }
  const seed = join(t.path, 'a', 'seed');
  mkdirSync(seed, { recursive: true });
  git(seed, 'init', '-q', '-b', 'main');
  writeFileSync(join(seed, 'README.md'), '# shop\n');
  git(seed, 'add', '.');
  git(seed, 'commit', '-q', '-m', 'init');
  git(seed, 'remote', 'add', 'origin', origin);
  git(seed, 'push', '-q', 'origin', 'main');
  for (const who of ['a', 'b'] as const) {
    git(join(t.path, who), 'clone', '-q', origin, dev[who].repo);
    // each store starts with its digest and profile facts, so no SessionStart below starts a
    // background consolidation that would add profile facts to a store between two steps
    expect(ax(who, ['consolidate']).code).toBe(0);
  }
}, 60_000);

const notProfile = (titles: string[]) => titles.filter((x) => !x.startsWith('profile'));
afterAll(() => t.cleanup());

describe('team context through git, two developers', () => {
  let decisionId = '';
  let beforeChange = '';

  it('A records and promotes, exports, commits and pushes; B pulls and is told to import', () => {
    decisionId = aj<{ id: string }>('a', [
      'record',
      '--type',
      'decision',
      '--title',
      'Orders are stored in Postgres',
      '--body',
      'The orders service keeps its data in Postgres 15; no SQLite in production.',
    ]).json.id;
    const discovery = aj<{ id: string }>('a', [
      'record',
      '--type',
      'discovery',
      '--title',
      'Checkout test needs the fake payment server',
      '--body',
      'Run npm run fake-pay before the checkout tests, or they time out.',
    ]).json.id;
    const handover = aj<{ id: string }>('a', [
      'record',
      '--type',
      'handover',
      '--title',
      'WIP',
      '--body',
      'Halfway through the refund flow.',
    ]).json.id;
    expect(ax('a', ['promote', handover]).code).toBe(2); // one developer's state
    const promoted = aj<{ promoted: { already: boolean }[] }>('a', ['promote', discovery]);
    expect(promoted.code).toBe(0);
    expect(promoted.json.promoted[0]!.already).toBe(false);
    const exp = aj<{ blocks: number; written: boolean; gitattributes: boolean }>('a', ['team', 'export']);
    expect(exp.json).toMatchObject({ written: true, gitattributes: true });
    expect(exp.json.blocks).toBeGreaterThanOrEqual(2);
    const file = readFileSync(join(dev.a.repo, '.agentctx', 'context.md'), 'utf8');
    expect(file).toContain('### Orders are stored in Postgres');
    expect(file).toContain('### Checkout test needs the fake payment server');
    expect(file).not.toContain('refund flow');
    expect(readFileSync(join(dev.a.repo, '.agentctx', '.gitattributes'), 'utf8')).toBe(
      'context.md merge=agentctx-team\n',
    );
    // re-export is byte-identical and says so
    expect(aj<{ written: boolean }>('a', ['team', 'export']).json.written).toBe(false);
    commitAndPush('a', 'team context');

    pull('b');
    expect(existsSync(join(dev.b.repo, '.agentctx', 'context.md'))).toBe(true);
    // B's next session learns it at once: one line, one explicit action
    expect(hookContext('b')).toContain('run `agentctx team import`');
    const status = aj<{ changed_in_file: { incoming: { title: string }[] } }>('b', ['team', 'status']);
    expect(notProfile(status.json.changed_in_file.incoming.map((i) => i.title)).sort()).toEqual([
      'Checkout test needs the fake payment server',
      'Orders are stored in Postgres',
    ]);
    // exporting before importing would drop A's records from the file: refused
    const early = aj<{ code: string }>('b', ['team', 'export']);
    expect(early.code).toBe(2);
    expect(early.json.code).toBe('team_file_ahead');
  });

  it('B imports: the records arrive, the notice goes, the next SessionStart carries the decision', () => {
    const imp = aj<{ created: { title: string }[]; errors: unknown[]; digest_refreshed: boolean }>('b', [
      'team',
      'import',
    ]);
    expect(imp.code).toBe(0);
    expect(notProfile(imp.json.created.map((c) => c.title)).sort()).toEqual([
      'Checkout test needs the fake payment server',
      'Orders are stored in Postgres',
    ]);
    expect(imp.json.digest_refreshed).toBe(true);
    const again = aj<{ created: unknown[]; updated: unknown[]; linked: unknown[]; unchanged: number }>('b', [
      'team',
      'import',
    ]);
    expect(again.json).toMatchObject({ created: [], updated: [], linked: [] });
    expect(again.json.unchanged).toBeGreaterThanOrEqual(2);
    const ctx = hookContext('b');
    expect(ctx).toContain('Orders are stored in Postgres');
    expect(ctx).not.toContain('team import');
    const found = aj<{ results: { title: string }[] }>('b', ['search', 'orders postgres']);
    expect(found.json.results[0]!.title).toBe('Orders are stored in Postgres');
  });

  it('B supersedes and pushes; A pulls and imports: search shows only the new fact, --as-of the old one', async () => {
    await sleep(30);
    beforeChange = new Date().toISOString();
    await sleep(30);
    const bId = aj<{ results: { id: string }[] }>('b', ['search', 'orders postgres']).json.results[0]!.id;
    const sup = aj<{ new_id: string }>('b', [
      'supersede',
      bId,
      '--body',
      'The orders service moved to Postgres 16 with logical replication.',
      '--rationale',
      'upgrade for replication',
    ]);
    expect(sup.code).toBe(0);
    expect(aj<{ written: boolean }>('b', ['team', 'export']).json.written).toBe(true);
    commitAndPush('b', 'orders on Postgres 16');

    pull('a');
    expect(hookContext('a')).toContain('team context changed');
    const imp = aj<{ updated: { old_id: string }[] }>('a', ['team', 'import']);
    expect(imp.json.updated.map((u) => u.old_id)).toEqual([decisionId]);
    const now = aj<{ results: { id: string; title: string }[] }>('a', ['search', 'orders service postgres']);
    expect(now.json.results.length).toBe(1);
    const newId = now.json.results[0]!.id;
    expect(aj<{ record: { body: string } }>('a', ['show', newId]).json.record.body).toContain('Postgres 16');
    const then = aj<{ results: { id: string }[] }>('a', [
      'search',
      'orders service postgres',
      '--as-of',
      beforeChange,
    ]);
    expect(then.json.results.map((r) => r.id)).toEqual([decisionId]);
    const shown = aj<{ record: { id: string; body: string } }>('a', ['show', newId, '--as-of', beforeChange]);
    expect(shown.json.record.id).toBe(decisionId);
    expect(shown.json.record.body).toContain('Postgres 15');
    const exported = ax('a', ['export', '--as-of', beforeChange]);
    expect(exported.stdout).toContain('Postgres 15');
    expect(exported.stdout).not.toContain('Postgres 16');
    // what A knew at that moment is the same; known-at a time before the record existed: nothing
    const known = aj<{ results: unknown[] }>('a', [
      'search',
      'orders service postgres',
      '--known-at',
      '2000-01-01',
    ]);
    expect(known.json.results).toEqual([]);
    // both files agree after A exports
    expect(aj<{ written: boolean }>('a', ['team', 'export']).json.written).toBe(false);
  });

  it('records added on two branches merge without a conflict and import without loss', () => {
    aj('a', [
      'record',
      '--type',
      'convention',
      '--title',
      'Money is integer cents',
      '--body',
      'Amounts are integer cents, never floats.',
    ]);
    aj('a', ['team', 'export']);
    git(dev.a.repo, 'add', '.agentctx');
    git(dev.a.repo, 'commit', '-q', '-m', 'A: cents');
    aj('b', [
      'record',
      '--type',
      'convention',
      '--title',
      'Dates are UTC',
      '--body',
      'Store and log every timestamp in UTC.',
    ]);
    aj('b', [
      'record',
      '--type',
      'decision',
      '--title',
      'Refunds go through the ledger',
      '--body',
      'Every refund is a ledger entry, never an update.',
    ]);
    aj('b', ['team', 'export']);
    commitAndPush('b', 'B: utc and ledger');
    pull('a'); // a real merge of two histories: agentctx's merge driver keeps both sides' blocks
    const merged = readFileSync(join(dev.a.repo, '.agentctx', 'context.md'), 'utf8');
    expect(merged).not.toMatch(/^(<{7}|={7}|>{7})/m);
    const imp = aj<{ created: { title: string }[]; errors: unknown[] }>('a', ['team', 'import']);
    expect(imp.json.errors).toEqual([]);
    expect(imp.json.created.map((c) => c.title).sort()).toEqual([
      'Dates are UTC',
      'Refunds go through the ledger',
    ]);
    // the merge driver already wrote the file as export writes it: nothing to commit but the merge
    expect(aj<{ written: boolean }>('a', ['team', 'export']).json.written).toBe(false);
    git(dev.a.repo, 'push', '-q', 'origin', 'main');
    pull('b');
    const bImp = aj<{ created: { title: string }[] }>('b', ['team', 'import']);
    expect(bImp.json.created.map((c) => c.title)).toEqual(['Money is integer cents']);
    expect(readFileSync(join(dev.b.repo, '.agentctx', 'context.md'), 'utf8')).toBe(
      readFileSync(join(dev.a.repo, '.agentctx', 'context.md'), 'utf8'),
    );
    expect(aj<{ written: boolean }>('b', ['team', 'export']).json.written).toBe(false);
  });

  it('the same record changed on two branches: both versions kept until chosen in review, then both sides end with the choice', async () => {
    const idA = aj<{ results: { id: string }[] }>('a', ['search', 'integer cents']).json.results[0]!.id;
    const idB = aj<{ results: { id: string }[] }>('b', ['search', 'integer cents']).json.results[0]!.id;
    aj('a', [
      'supersede',
      idA,
      '--body',
      'Amounts are integer cents in a bigint column.',
      '--rationale',
      'overflow',
    ]);
    aj('a', ['team', 'export']);
    git(dev.a.repo, 'add', '.agentctx');
    git(dev.a.repo, 'commit', '-q', '-m', 'A: bigint');
    await sleep(20);
    aj('b', [
      'supersede',
      idB,
      '--body',
      'Amounts are integer minor units of the currency.',
      '--rationale',
      'yen has none',
    ]);
    aj('b', ['team', 'export']);
    commitAndPush('b', 'B: minor units');
    pull('a'); // the merge driver keeps both whole versions of the block
    const merged = readFileSync(join(dev.a.repo, '.agentctx', 'context.md'), 'utf8');
    expect(merged.split('### Money is integer cents').length - 1).toBe(2);
    const chainBodies = (who: 'a' | 'b') => {
      const hits = aj<{ results: { id: string }[] }>(who, ['search', 'amounts integer']).json.results;
      expect(hits.length).toBe(1);
      const shown = aj<{ record: { body: string }; chain: { id: string }[] }>(who, ['show', hits[0]!.id]);
      return {
        current: shown.json.record.body,
        history: shown.json.chain.map(
          (c) => aj<{ record: { body: string } }>(who, ['show', c.id]).json.record.body,
        ),
      };
    };
    const impA = aj<{ errors: unknown[]; conflicts: unknown[] }>('a', ['team', 'import']);
    expect(impA.json.errors).toEqual([]);
    expect(impA.json.conflicts.length).toBe(1);
    const a = chainBodies('a');
    // B's change is the later one: current; A's own is kept in A's history
    expect(a.current).toContain('minor units');
    expect(a.history.some((b) => b.includes('bigint'))).toBe(true);
    // both versions wait for a person; A keeps the current (later) one in review
    const [item] = aj<{ items: { key: string; detail: string }[] }>('a', [
      'review',
      '--json',
      '--kind',
      'conflict',
    ]).json.items;
    const n = item!.detail.split('\n').findIndex((l) => l.includes('[current]'));
    expect(aj('a', ['review', '--choose', item!.key, '--version', String(n)]).code).toBe(0);
    aj('a', ['team', 'export']);
    commitAndPush('a', 'resolved');
    pull('b');
    expect(aj<{ errors: unknown[] }>('b', ['team', 'import']).json.errors).toEqual([]);
    const b = chainBodies('b');
    expect(b.current).toBe(chainBodies('a').current);
    expect(b.current).toContain('minor units');
    expect(
      readFileSync(join(dev.b.repo, '.agentctx', 'context.md'), 'utf8').split('### Money').length - 1,
    ).toBe(1);
  });

  it('a hand edit with a broken block imports everything else and names the line', () => {
    const path = join(dev.b.repo, '.agentctx', 'context.md');
    const text = readFileSync(path, 'utf8');
    const lines = text.split('\n');
    const at = lines.indexOf('### Dates are UTC') - 1;
    lines[at] = lines[at]!.replace(/ valid_from=\S+/, ' valid_from=someday');
    lines.push('', '### Feature flags live in LaunchDarkly', '', 'Never in env vars.', '');
    // a new block under the last section (Conventions): added by hand
    writeFileSync(path, lines.join('\n'));
    const res = ax('b', ['team', 'import']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain(`line ${at + 1}: bad valid_from "someday"`);
    expect(res.stdout).toContain('+ ');
    expect(res.stdout).toContain('Feature flags live in LaunchDarkly');
    // the record of the broken block is untouched
    const utc = aj<{ results: { title: string }[] }>('b', ['search', 'timestamp UTC']);
    expect(utc.json.results.map((r) => r.title)).toEqual(['Dates are UTC']);
  });
});
