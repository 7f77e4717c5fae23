import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../src/database/sqlite.js';
import { type HookWorld, hookWorld } from '../process/hooks/helpers.js';
import { BENCH, figure, maxOf, SEED, seeded, total } from '../support/faults.js';
import { cliReads, cliWrites, hooks, mcpTools, type SurfaceResult, type World } from '../support/surfaces.js';

/**
 * A store damaged on disk: cut short, its header overwritten, one of its pages garbage. Every
 * CLI read and write command, every hook and the MCP tools are run against it: each answers,
 * degrades or fails with one clear line — never a hang, never a stack trace — and hooks exit 0.
 * (A plain-text file where the store should be is test/process/hooks/runner.test.ts.)
 */

const BOUND_MS = 30_000;

let template: HookWorld;
const ids: string[] = [];
const worlds: HookWorld[] = [];

beforeAll(() => {
  template = hookWorld('git@github.com:acme/damaged.git', 'damaged');
  const rand = seeded(SEED + 5);
  const db = template.db();
  db.transaction(() => {
    for (let i = 0; i < 600; i++) {
      const r = template.add({
        type: i % 2 ? 'decision' : 'discovery',
        title: `Ledger rule ${i}`,
        body: `Payments go through the ledger, rule ${i}, ${'with a longer explanation '.repeat(1 + Math.floor(rand() * 6))}.`,
      });
      if (i < 2) ids.push(r.id);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  template.closeDb();
});
afterAll(() => {
  for (const w of worlds) w.cleanup();
  template?.cleanup();
});

function worldWith(damage: (dbPath: string) => void): World {
  const w = hookWorld('git@github.com:acme/damaged.git', 'damaged');
  worlds.push(w);
  mkdirSync(join(w.home, '.agentctx'), { recursive: true });
  copyFileSync(template.dbPath, w.dbPath);
  damage(w.dbPath);
  return { home: w.home, repo: w.repo, env: w.env, id: ids[0]!, other: ids[1]! };
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

function garbage(n: number, seed: number): Buffer {
  const rand = seeded(seed);
  return Buffer.from(Array.from({ length: n }, () => Math.floor(rand() * 256)));
}

/** The page number of a table's root, and the page size. */
function rootOf(path: string, table: string): { page: number; size: number } {
  const db = new Database(path, { readonly: true });
  try {
    const page = (
      db.prepare('SELECT rootpage FROM sqlite_master WHERE name = ?').get(table) as { rootpage: number }
    ).rootpage;
    return { page, size: db.pragma('page_size', { simple: true }) as number };
  } finally {
    db.close();
  }
}

const DAMAGES: [string, (p: string) => void][] = [
  ['truncated to half its size', (p) => truncateSync(p, Math.floor(statSync(p).size / 2))],
  ['truncated inside its header', (p) => truncateSync(p, 60)],
  ['a garbage header', (p) => overwrite(p, 0, garbage(100, SEED + 6))],
  [
    "the records table's root page overwritten",
    (p) => {
      const { page, size } = rootOf(p, 'records');
      overwrite(p, (page - 1) * size, garbage(size, SEED + 7));
    },
  ],
  [
    "the full-text index's root page overwritten",
    (p) => {
      const { page, size } = rootOf(p, 'records_fts_data');
      overwrite(p, (page - 1) * size, garbage(size, SEED + 8));
    },
  ],
];

const tally = { surfaces: 0, answered: 0, clearErrors: 0, ms: [] as number[] };

function expectClear(results: SurfaceResult[], label: string): void {
  const bad = results
    .filter((r) => !r.ok || r.ms >= BOUND_MS)
    .map((r) => `${r.surface}: ${r.detail} (${r.ms} ms)`);
  expect(bad, label).toEqual([]);
  tally.surfaces += results.length;
  tally.answered += results.filter((r) => r.answered).length;
  tally.clearErrors += results.filter((r) => !r.answered).length;
  tally.ms.push(...results.map((r) => r.ms));
}

// the default run takes three of them (a few seconds each on a busy machine); the bench all five
const RUN = BENCH ? DAMAGES : DAMAGES.filter((_, i) => i % 2 === 0);

describe('a damaged store', () => {
  for (const [name, damage] of RUN) {
    it(`${name}: every command, hook and MCP tool answers or fails clearly`, async () => {
      const w = worldWith(damage);
      const before = readFileSync(join(w.home, '.agentctx', 'agentctx.db'));
      const results = [
        ...(await Promise.all([...cliReads(w, BOUND_MS), ...cliWrites(w, BOUND_MS), ...hooks(w, BOUND_MS)])),
        ...(await mcpTools(w, BOUND_MS)),
      ];
      expectClear(results, name);
      // SQLite's words never come alone: the store is named with the way out (agentctx doctor)
      const sqliteSaid = /malformed|not a database/;
      for (const r of results.filter((x) => !x.answered && sqliteSaid.test(x.detail))) {
        if (r.surface.startsWith('mcp')) expect(r.detail, r.surface).toContain('"code":"store_damaged"');
        if (!r.surface.startsWith('hook'))
          expect(r.detail, r.surface).toMatch(/is damaged; run `agentctx doctor`/);
      }
      if (process.env.FAULTS_DEBUG)
        console.log(name, results.map((r) => `${r.surface} ${r.answered ? 'ok' : r.detail}`).join('\n'));
      // a damaged store is never "repaired" by overwriting it with an empty one
      expect(statSync(join(w.home, '.agentctx', 'agentctx.db')).size).toBeGreaterThanOrEqual(
        Math.min(before.length, 60),
      );
    }, 180_000);
  }

  it('figures', () => {
    figure('Damaged, read-only and locked stores', 'damaged stores', RUN.map(([n]) => n).join('; '));
    figure(
      'Damaged, read-only and locked stores',
      'damaged: surfaces run (CLI, hooks, MCP) / answered / clear error',
      `${tally.surfaces} / ${tally.answered} / ${tally.clearErrors}`,
    );
    figure('Damaged, read-only and locked stores', 'damaged: hangs, stack traces, hook exits ≠ 0', 0);
    figure('Damaged, read-only and locked stores', 'damaged: slowest surface', maxOf(tally.ms), 'ms');
    total('faults survived (damaged stores)', RUN.length);
  });
});
