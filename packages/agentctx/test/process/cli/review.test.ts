import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { BIN, isolatedEnv, runAgentctx } from '../../support/cli.js';
import { git } from '../../support/git.js';
import { tempDir } from '../../support/tmp.js';
import { basePayload, type HookWorld, hookWorld, runHook } from '../hooks/helpers.js';

/**
 * The review queue's answers change the store exactly as the equivalent CLI commands do: one
 * pristine world (a real git repository, records linked by the real PostToolUse hook, a real
 * consolidation finding stale records and near-duplicates), copied twice per generated queue
 * walk; one copy answers through `agentctx review --<action> KEY`, the other runs the command
 * the item names (`confirm`, `supersede`, `retire`, `merge [--dismiss]`, `team import --yes`).
 * The two stores must then hold the same rows (ids the runs generated and timestamps aside).
 */

/** util-linux `script`, for a run on a pseudo-terminal. */
const HAS_SCRIPT = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

interface Item {
  key: string;
  kind: string;
  actions: string[];
  commands: Record<string, string>;
  record_ids: string[];
}

let w: HookWorld;
let scratch: { path: string; cleanup: () => void };

function write(path: string, text: string): void {
  mkdirSync(join(w.repo, path, '..'), { recursive: true });
  writeFileSync(join(w.repo, path), text);
}

function edit(sessionId: string, file: string) {
  return basePayload(w, sessionId, 'PostToolUse', {
    tool_name: 'Edit',
    tool_input: { file_path: join(w.repo, file), old_string: 'a', new_string: 'b' },
    tool_response: { filePath: join(w.repo, file), success: true },
    tool_use_id: 'toolu_1',
  });
}

/** A world per copy: its HOME (store) and repository, same project id (same origin). */
function copyWorld(name: string): { home: string; repo: string; env: NodeJS.ProcessEnv } {
  const home = join(scratch.path, name);
  rmSync(home, { recursive: true, force: true });
  cpSync(w.home, home, { recursive: true });
  return { home, repo: join(home, 'shop'), env: isolatedEnv(home) };
}

function cli(world: { repo: string; env: NodeJS.ProcessEnv }, args: string[]): unknown {
  const r = runAgentctx([...args, '--json'], { cwd: world.repo, env: world.env, timeoutMs: 60_000 });
  expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(0);
  return JSON.parse(r.stdout);
}

function queue(world: { repo: string; env: NodeJS.ProcessEnv }): Item[] {
  return (cli(world, ['review']) as { items: Item[] }).items;
}

/** The argv of the CLI command an item names for an action, placeholders filled. */
function commandArgv(item: Item, action: string): string[] {
  const words = item.commands[action]!.split(' ').slice(1);
  return words.flatMap((x) =>
    x === 'BODY' ? ['Rounded half-up now.'] : x === 'WHY' ? ['billing changed'] : [x],
  );
}

const TABLES = [
  'records',
  'edges',
  'record_entities',
  'nodes',
  'file_anchors',
  'record_staleness',
  'merge_candidates',
  'merge_dismissals',
  'team_links',
];
const VOLATILE = /(_at|^valid_from|^last_accessed|^score)$/;

/** Every row of the tables above, with generated ids named by what they hold and times left out. */
function dump(home: string, known: ReadonlySet<string>): Record<string, string[]> {
  const db = new Database(join(home, '.agentctx', 'agentctx.db'), { readonly: true });
  try {
    const fresh = db
      .prepare('SELECT id, title, body FROM records ORDER BY title, body')
      .all()
      .filter((r) => !known.has((r as { id: string }).id)) as { id: string; title: string; body: string }[];
    const names = new Map<string, string>(fresh.map((r) => [r.id, `new:${r.title}:${r.body}`]));
    for (const n of db.prepare('SELECT id, name FROM nodes').all() as { id: string; name: string }[]) {
      names.set(n.id, `node:${n.name}`);
    }
    const out: Record<string, string[]> = {};
    for (const t of TABLES) {
      const rows = db.prepare(`SELECT * FROM ${t}`).all() as Record<string, unknown>[];
      out[t] = rows
        .map((row) => {
          const kept: Record<string, unknown> = {};
          for (const [k, v] of Object.entries(row)) {
            if (VOLATILE.test(k) || (t === 'edges' && k === 'id')) continue;
            kept[k] = typeof v === 'string' ? (names.get(v) ?? v) : v;
          }
          if ('superseded_at' in row) kept.superseded = row.superseded_at !== null;
          return JSON.stringify(kept);
        })
        .sort();
    }
    return out;
  } finally {
    db.close();
  }
}

let known: Set<string>;

beforeAll(() => {
  scratch = tempDir('agentctx-review-');
  w = hookWorld('git@github.com:acme/shop.git', 'shop');
  git(w.repo, 'init', '-q');
  write('src/billing/charge.ts', 'export const charge = (c: number) => roundHalfEven(c);\n');
  write('src/cart.ts', 'export const cart = [];\n');
  write('src/legacy.ts', 'export const legacy = 1;\n');
  git(w.repo, 'add', '-A');
  git(w.repo, 'commit', '-q', '-m', 'start');
  w.add({ title: 'Charges round half-even', body: 'charge() rounds cents half-even.', sessionId: 's1' });
  w.add({
    title: 'Cart is kept in memory',
    body: 'The cart lives in an in-memory array, never persisted.',
    sessionId: 's1',
    confidence: 'inferred',
    source: 'llm_extraction',
  });
  w.add({ title: 'Legacy flag stays at 1', body: 'legacy must stay 1 for old clients.', sessionId: 's2' });
  w.add({
    type: 'convention',
    title: 'Use pnpm for every install in CI',
    body: 'CI installs dependencies with pnpm install --frozen-lockfile on every run.',
    confidence: 'inferred',
    source: 'llm_extraction',
  });
  w.add({
    type: 'convention',
    title: 'Use pnpm for every install in the CI',
    body: 'CI installs dependencies with pnpm install --frozen-lockfile on every single run.',
  });
  w.add({
    type: 'discovery',
    title: 'Webhooks arrive out of order',
    body: 'Stripe webhooks may arrive out of order; handlers check the event time.',
    confidence: 'inferred',
    source: 'llm_extraction',
  });
  w.closeDb();
  expect(runHook(w, 'post-tool-use', edit('s1', 'src/billing/charge.ts')).code).toBe(0);
  expect(runHook(w, 'post-tool-use', edit('s1', 'src/cart.ts')).code).toBe(0);
  expect(runHook(w, 'post-tool-use', edit('s2', 'src/legacy.ts')).code).toBe(0);
  write('src/billing/charge.ts', 'export const charge = (c: number) => roundHalfUp(c);\n');
  rmSync(join(w.repo, 'src/legacy.ts'));
  git(w.repo, 'add', '-A');
  git(w.repo, 'commit', '-q', '-m', 'half-up; drop legacy');
  cli(w, ['consolidate']);
  const db = w.db();
  known = new Set((db.prepare('SELECT id FROM records').all() as { id: string }[]).map((r) => r.id));
  w.closeDb();
}, 60_000);

afterAll(() => {
  w?.cleanup();
  scratch?.cleanup();
});

describe('agentctx review', () => {
  it('lists every kind of item the world holds, each with its actions and CLI commands', () => {
    const items = queue(w);
    const kinds = new Set(items.map((i) => i.kind));
    expect([...kinds].sort()).toEqual(['duplicate', 'inferred', 'stale']);
    const stale = items.filter((i) => i.kind === 'stale');
    expect(stale).toHaveLength(3); // charge.ts changed, legacy.ts deleted (cart.ts was anchored with them)
    for (const i of items) for (const a of i.actions) expect(i.commands[a]).toMatch(/^agentctx /);
  });

  it('answers change the store exactly as the equivalent CLI commands (generated walks)', async () => {
    const step = fc.record({ pick: fc.nat(), action: fc.nat() });
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 3 }), async (steps) => {
        const viaReview = copyWorld('a');
        const viaCli = copyWorld('b');
        for (const s of steps) {
          const items = queue(viaReview);
          expect(queue(viaCli)).toEqual(items);
          if (items.length === 0) break;
          const item = items[s.pick % items.length]!;
          const action = item.actions[s.action % item.actions.length]!;
          const before = dump(viaReview.home, known);
          const extra =
            action === 'supersede'
              ? ['--body', 'Rounded half-up now.', '--rationale', 'billing changed']
              : [];
          cli(viaReview, ['review', `--${action}`, item.key, ...extra]);
          cli(viaCli, commandArgv(item, action));
          const after = dump(viaReview.home, known);
          expect(after).not.toEqual(before); // the answer did something
          expect(dump(viaCli.home, known)).toEqual(after);
          // an answered item leaves the queue
          expect(queue(viaReview).map((i) => i.key)).not.toContain(item.key);
        }
      }),
      { seed: 1818, numRuns: 5 },
    );
  }, 240_000);

  it('a team-file change: confirm imports it, exactly as team import --yes does', () => {
    // a teammate's store (another HOME, the same repository) exports a decision this store lacks
    const viaReview = copyWorld('team-a');
    const mate = { repo: viaReview.repo, env: isolatedEnv(join(scratch.path, 'mate')) };
    mkdirSync(join(scratch.path, 'mate'), { recursive: true });
    cli(mate, [
      'record',
      '--type',
      'decision',
      '--title',
      'Refunds go through the ledger',
      '--body',
      'Never refund from the API.',
    ]);
    cli(mate, ['team', 'export']);
    const viaCli = copyWorld('team-b');
    cpSync(join(viaReview.repo, '.agentctx'), join(viaCli.repo, '.agentctx'), { recursive: true });
    const team = queue(viaReview).find((i) => i.kind === 'team');
    expect(team?.commands.confirm).toBe('agentctx team import --yes');
    expect(queue(viaCli).find((i) => i.kind === 'team')).toEqual(team);
    cli(viaReview, ['review', '--confirm', 'team']);
    cli(viaCli, commandArgv(team!, 'confirm'));
    expect(dump(viaCli.home, known)).toEqual(dump(viaReview.home, known));
    expect(queue(viaReview).some((i) => i.kind === 'team')).toBe(false);
    const titles = (cli(viaReview, ['search', 'refunds ledger']) as { results: { title: string }[] }).results;
    expect(titles.map((r) => r.title)).toContain('Refunds go through the ledger');
  });

  it('status counts what waits by kind, exactly as review --json lists it, and writes nothing', () => {
    const world = copyWorld('status');
    // a teammate's export makes the team kind wait too
    const mate = { repo: world.repo, env: isolatedEnv(join(scratch.path, 'status-mate')) };
    mkdirSync(join(scratch.path, 'status-mate'), { recursive: true });
    cli(mate, [
      'record',
      '--type',
      'decision',
      '--title',
      'Refunds go through the ledger',
      '--body',
      'Never from the API.',
    ]);
    cli(mate, ['team', 'export']);
    const byKind = (items: Item[]) =>
      Object.fromEntries(
        ['conflict', 'team', 'stale', 'duplicate', 'inferred'].map((k) => [
          k,
          items.filter((i) => i.kind === k).length,
        ]),
      );
    const statusReview = () =>
      (cli(world, ['status']) as { review: { total: number; by_kind: Record<string, number>; hint: string } })
        .review;
    const items = queue(world);
    const listed = byKind(items);
    for (const k of ['team', 'stale', 'duplicate', 'inferred']) expect(listed[k], k).toBeGreaterThan(0);
    const before = dump(world.home, known);
    const counted = statusReview();
    expect(counted.by_kind).toEqual(listed);
    expect(counted.total).toBe(items.length);
    expect(counted.hint).toBe('agentctx review');
    expect(dump(world.home, known)).toEqual(before);
    const text = runAgentctx(['status', '--verbose'], { cwd: world.repo, env: world.env });
    expect(text.stdout).toMatch(
      new RegExp(
        `review +1 team-file change, ${listed.stale} stale records, ${listed.duplicate} near-duplicate pairs?, ${listed.inferred} inferred records? to confirm \\(\`agentctx review\`\\)`,
      ),
    );
    // answering one item moves both by one
    const first = items.find((i) => i.kind === 'inferred')!;
    cli(world, ['review', '--confirm', first.key]);
    const after = byKind(queue(world));
    expect(after.inferred).toBe(listed.inferred! - 1);
    expect(statusReview().by_kind).toEqual(after);
  });

  it.skipIf(!HAS_SCRIPT)('on a real terminal, keys typed ahead answer the next items, one each', () => {
    const world = copyWorld('tty');
    const items = queue(world);
    expect(items.length).toBeGreaterThanOrEqual(3);
    const first = items[0]!;
    const key = first.actions.includes('confirm') ? 'c' : 'm';
    // util-linux `script` runs the command on a pseudo-terminal: stdin is a TTY, raw mode works.
    // The three keys reach it as one chunk, as fast typing or a paste does.
    const r = spawnSync('script', ['-qfec', `'${process.execPath}' '${BIN}' review`, '/dev/null'], {
      cwd: world.repo,
      env: { ...world.env, TERM: 'dumb' },
      input: `${key}nq`,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toContain('review: 1 answered, 1 skipped');
    expect(r.stdout).toContain(`[2/${items.length}]`);
    expect(queue(world).map((i) => i.key)).not.toContain(first.key);
    expect(queue(world)).toHaveLength(items.length - 1);
  });

  it('the interactive walk reads one key per item, from a pipe as from a terminal', () => {
    const world = copyWorld('keys');
    const items = queue(world);
    const first = items[0]!;
    // confirm/merge the first item, skip the second, quit
    const key = first.actions.includes('confirm') ? 'c' : 'm';
    const r = runAgentctx(['review'], { cwd: world.repo, env: world.env, input: `${key}\nn\nq\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('review: 1 answered, 1 skipped');
    expect(r.stderr).toContain(`[1/${items.length}]`);
    expect(queue(world).map((i) => i.key)).not.toContain(first.key);
    expect(queue(world)).toHaveLength(items.length - 1);
  });
});
