import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HookWorld, hookWorld } from '../process/hooks/helpers.js';
import { isolatedEnv } from '../support/cli.js';
import { figure, maxOf, total } from '../support/faults.js';
import { mountSmallFs, type SmallFs } from '../support/fs-faults.js';
import { rowsOf, storeHealth } from '../support/store-check.js';
import { cliReads, cliWrites, hooks, mcpTools, type SurfaceResult, type World } from '../support/surfaces.js';
import { holdWriteLock } from '../support/write-lock.js';

/**
 * Two stores that refuse writes for different reasons, through every CLI command, hook and MCP
 * tool at once:
 * - a store another process holds a write transaction on (BEGIN IMMEDIATE, held longer than any
 *   busy timeout): reads answer at once (WAL), writes wait their busy timeout then fail with one
 *   clear line, hooks exit 0 and never wait on it for long, nothing hangs;
 * - a store on a file system mounted read-only (a real tmpfs; skipped with the reason where the
 *   machine cannot mount one): reads answer from a snapshot, writes fail clearly, hooks exit 0.
 * (Reads on a full disk and locks that cannot be created are full-disk-reads and lock-truth.)
 */

/** Longer than the CLI's busy timeout (10 s) and the hooks' (15 s), plus process start-up. */
const HOLD_MS = 30_000;
const BOUND_MS = 40_000;
const SECTION = 'Damaged, read-only and locked stores';

let template: HookWorld;
const ids: string[] = [];

beforeAll(() => {
  template = hookWorld('git@github.com:acme/locked.git', 'locked');
  for (let i = 0; i < 40; i++) {
    const r = template.add({ title: `Ledger rule ${i}`, body: `Payments go through the ledger, rule ${i}.` });
    if (i < 2) ids.push(r.id);
  }
  template.db().pragma('wal_checkpoint(TRUNCATE)');
  template.closeDb();
});
afterAll(() => template?.cleanup());

function summary(results: SurfaceResult[]): string {
  return results.map((r) => `${r.surface} ${r.ms} ms ${r.answered ? 'answered' : r.detail}`).join('\n');
}

describe('a store locked by a long write transaction in another process', () => {
  it('reads answer, writes fail clearly after their busy timeout, hooks exit 0 quickly, nothing hangs', async () => {
    const w = hookWorld('git@github.com:acme/locked.git', 'locked');
    try {
      mkdirSync(join(w.home, '.agentctx'), { recursive: true });
      copyFileSync(template.dbPath, w.dbPath);
      const world: World = { home: w.home, repo: w.repo, env: w.env, id: ids[0]!, other: ids[1]! };
      const holder = await holdWriteLock(w.dbPath, HOLD_MS);
      const t0 = Date.now();
      const [reads, rest, mcp] = await Promise.all([
        Promise.all(cliReads(world, BOUND_MS)),
        Promise.all([...cliWrites(world, BOUND_MS), ...hooks(world, BOUND_MS)]),
        mcpTools(world, BOUND_MS),
      ]);
      const during = Date.now() - t0;
      await holder.done;
      const all = [...reads, ...rest, ...mcp];
      if (process.env.FAULTS_DEBUG) console.log(summary(all));
      expect(during, 'the surfaces ran while the lock was held').toBeLessThan(HOLD_MS);
      expect(all.filter((r) => !r.ok).map((r) => `${r.surface}: ${r.detail}`)).toEqual([]);
      // WAL: a held write transaction never stops a reader
      expect(reads.filter((r) => !r.answered).map((r) => r.surface)).toEqual([]);
      for (const name of ['mcp ctx_search', 'mcp ctx_get', 'mcp ctx_project'])
        expect(mcp.find((r) => r.surface === name)?.answered, name).toBe(true);
      // a write that could not get the lock says so
      for (const r of [...rest, ...mcp].filter((x) => !x.answered && !x.surface.startsWith('hook')))
        expect(r.detail, r.surface).toMatch(/locked|busy/i);
      const hookMs = rest.filter((r) => r.surface.startsWith('hook')).map((r) => r.ms);
      // no hook waits on the lock for long: the prompt path never touches it, and the hooks
      // that write (post-tool-use, session-end, stop) wait 250 ms, then spool or journal the
      // write for a later writer (test/process/hooks/busy-store.test.ts checks nothing is lost)
      expect(maxOf(hookMs)).toBeLessThan(BOUND_MS);
      for (const h of [
        'session-start',
        'user-prompt-submit',
        'cwd-changed',
        'post-tool-use',
        'session-end',
        'stop',
      ])
        expect(rest.find((r) => r.surface === `hook ${h}`)!.ms, h).toBeLessThan(10_000);
      // nothing half-written once the holder rolled back
      expect(storeHealth(w.dbPath)).toEqual({ integrity: 'ok', fts: 'ok' });
      figure(SECTION, 'locked: write transaction held elsewhere', HOLD_MS, 'ms');
      total('faults survived (locked store)', 1);
      figure(
        SECTION,
        'locked: CLI reads answered',
        `${reads.filter((r) => r.answered).length}/${reads.length}`,
      );
      figure(SECTION, 'locked: slowest CLI read', maxOf(reads.map((r) => r.ms)), 'ms');
      const ms = (name: string) => rest.find((r) => r.surface === `hook ${name}`)!.ms;
      figure(
        SECTION,
        'locked: hooks exit 0 — session-start / user-prompt-submit / stop',
        `${ms('session-start')} / ${ms('user-prompt-submit')} / ${ms('stop')}`,
        'ms',
      );
      figure(
        SECTION,
        'locked: hooks that write (spooling or journaling it) — post-tool-use / session-end',
        `${ms('post-tool-use')} / ${ms('session-end')}`,
        'ms',
      );
      figure(
        SECTION,
        'locked: writes refused with a clear "locked/busy" error, slowest',
        maxOf(rest.filter((r) => !r.surface.startsWith('hook')).map((r) => r.ms)),
        'ms',
      );
    } finally {
      w.cleanup();
    }
  }, 180_000);
});

describe('a store on a read-only file system', () => {
  let fs: SmallFs | undefined;
  let skipReason = '';
  beforeAll(() => {
    const mounted = mountSmallFs(join(template.home, 'ro-fs'), 8192);
    if (typeof mounted === 'string') {
      skipReason = mounted;
      console.warn(`read-only store tests skipped: ${mounted}`);
      return;
    }
    fs = mounted;
  });
  afterAll(() => fs?.unmount());

  it('reads answer, writes fail clearly, hooks exit 0, the store is unchanged', async (c) => {
    if (!fs) c.skip(skipReason);
    const home = fs!.dir;
    mkdirSync(join(home, '.agentctx'), { recursive: true });
    mkdirSync(join(home, 'tmp'), { recursive: true });
    const dbPath = join(home, '.agentctx', 'agentctx.db');
    copyFileSync(template.dbPath, dbPath);
    const world: World = {
      home,
      repo: template.repo,
      env: isolatedEnv(home),
      id: ids[0]!,
      other: ids[1]!,
    };
    const before = rowsOf(dbPath, 'SELECT * FROM records ORDER BY id');
    fs!.readOnly();
    let all: SurfaceResult[];
    try {
      all = [
        ...(await Promise.all([
          ...cliReads(world, BOUND_MS),
          ...cliWrites(world, BOUND_MS),
          ...hooks(world, BOUND_MS),
        ])),
        ...(await mcpTools(world, BOUND_MS)),
      ];
    } finally {
      fs!.readWrite();
    }
    if (process.env.FAULTS_DEBUG) console.log(summary(all));
    expect(all.filter((r) => !r.ok).map((r) => `${r.surface}: ${r.detail}`)).toEqual([]);
    // export --profile writes ~/.agentctx/profile/profile.md: a write here
    const reads = all.filter(
      (r) => !/^(record|supersede|merge|hook|mcp ctx_record|export --profile)/.test(r.surface),
    );
    expect(reads.filter((r) => !r.answered).map((r) => `${r.surface}: ${r.detail}`)).toEqual([]);
    for (const r of all.filter((x) => /^(record|supersede|merge|mcp ctx_record)/.test(x.surface))) {
      expect(r.answered, r.surface).toBe(false);
      expect(r.detail, r.surface).toMatch(/read-only|cannot open the store|readonly|unwritable/i);
    }
    expect(rowsOf(dbPath, 'SELECT * FROM records ORDER BY id')).toEqual(before);
    figure(
      SECTION,
      'read-only: reads answered (CLI + MCP)',
      `${reads.filter((r) => r.answered).length}/${reads.length}`,
    );
    figure(SECTION, 'read-only: writes refused clearly, store unchanged', 'all');
    total('faults survived (read-only store)', 1);
  }, 180_000);
});
