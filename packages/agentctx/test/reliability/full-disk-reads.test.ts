import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../src/database/sqlite.js';
import { startMcp } from '../process/mcp/client.js';
import { isolatedEnv, runAgentctx, runJson } from '../support/cli.js';
import { mountSmallFs, type SmallFs } from '../support/fs-faults.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * A full disk stops writes, not reads. The store lives on a real 4 MB tmpfs, filled to the last
 * byte. Before the fix every read failed there: in WAL mode SQLite creates and sizes the -shm
 * file even to read (`search`, `status`, `export`, `show` → "disk I/O error", the prompt hook
 * injected nothing), and MCP ctx_get failed on its access counters, a side write. A read-only
 * home failed the same way ("unable to open database file").
 */

let t: ReturnType<typeof tempDir>;
let fs: SmallFs | undefined;
let skipReason = '';
let repo: string;
let env: NodeJS.ProcessEnv;
const ids: string[] = [];

beforeAll(() => {
  t = tempDir('agentctx-fulldisk-');
  repo = fakeRepo(t.path, 'proj', 'git@github.com:acme/fulldisk.git');
  const mounted = mountSmallFs(join(t.path, 'fs'), 4096);
  if (typeof mounted === 'string') {
    skipReason = mounted;
    console.warn(`full-disk tests skipped: ${mounted}`);
    return;
  }
  fs = mounted;
  // the store, its logs and the session files all on the small file system
  env = isolatedEnv(fs.dir);
  mkdirSync(join(fs.dir, 'tmp'), { recursive: true });
  for (const n of [1, 2, 3]) {
    const r = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        `Postgres choice ${n}`,
        '--body',
        `We store orders in Postgres ${n}.`,
      ],
      { cwd: repo, env },
    );
    expect(r.code).toBe(0);
    ids.push(r.json.id);
  }
});

afterAll(() => {
  fs?.unmount();
  t.cleanup();
});

function reads(): void {
  const search = runJson<{ results: { id: string }[] }>(['search', 'postgres orders'], { cwd: repo, env });
  expect(search.stderr).toBe('');
  expect(search.code).toBe(0);
  expect(search.json.results.map((r) => r.id).sort()).toEqual([...ids].sort());

  const status = runJson<{ counts: Record<string, number> }>(['status'], { cwd: repo, env });
  expect(status.code).toBe(0);
  expect(status.json.counts.decision).toBe(3);

  const exp = runAgentctx(['export'], { cwd: repo, env });
  expect(exp.code).toBe(0);
  for (const n of [1, 2, 3]) expect(exp.stdout).toContain(`Postgres choice ${n}`);

  const show = runJson<{ record: { id: string } }>(['show', ids[0]!], { cwd: repo, env });
  expect(show.code).toBe(0);
  expect(show.json.record.id).toBe(ids[0]);

  const hook = runAgentctx(['hook', 'user-prompt-submit'], {
    cwd: repo,
    env,
    input: JSON.stringify({
      session_id: `full-${Date.now()}`,
      cwd: repo,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'where do we store orders, postgres?',
    }),
  });
  expect(hook.code).toBe(0);
  const ctx = (JSON.parse(hook.stdout || '{}') as { hookSpecificOutput?: { additionalContext?: string } })
    .hookSpecificOutput?.additionalContext;
  expect(ctx).toContain('Postgres choice');
}

describe('reads on a full disk', () => {
  it('search, status, export, show and the prompt hook still answer; a write fails plainly', (c) => {
    if (!fs) c.skip(skipReason);
    const dbPath = join(fs!.dir, '.agentctx', 'agentctx.db');
    expect(existsSync(`${dbPath}-shm`)).toBe(false); // every process closed the store
    expect(fs!.fill()).toBeGreaterThan(0);
    try {
      reads();
      const w = runAgentctx(['record', '--type', 'decision', '--title', 'More', '--body', 'more'], {
        cwd: repo,
        env,
      });
      expect(w.code).not.toBe(0);
      expect(w.stderr.trim()).toMatch(/^agentctx: cannot open the store .* for writing .*disk full/);
    } finally {
      fs!.free();
    }
  });
});

describe('reads on a read-only home', () => {
  it('search, status, export, show and the prompt hook still answer', (c) => {
    if (!fs) c.skip(skipReason);
    // as a clean shutdown leaves it: the opens refused above may have left an empty -wal and a
    // stub -shm behind (no process has the store open now, and the WAL holds nothing)
    const dbPath = join(fs!.dir, '.agentctx', 'agentctx.db');
    expect(statSync(`${dbPath}-wal`, { throwIfNoEntry: false })?.size ?? 0).toBe(0);
    for (const suffix of ['-wal', '-shm']) rmSync(dbPath + suffix, { force: true });
    fs!.readOnly();
    try {
      reads();
    } finally {
      fs!.readWrite();
    }
  });
});

describe('side writes of MCP reads on a full disk', () => {
  it('MCP ctx_get answers although its access counters cannot be written', async (c) => {
    if (!fs) c.skip(skipReason);
    const mcp = await startMcp(repo, env);
    try {
      const first = await mcp.call('ctx_get', { ids: [ids[0]] });
      expect(first.isError).toBe(false);
      // empty the WAL so that the next write must grow it, then fill the disk
      const db = new Database(join(fs!.dir, '.agentctx', 'agentctx.db'));
      db.pragma('wal_checkpoint(TRUNCATE)');
      db.close();
      fs!.fill();
      const res = await mcp.call('ctx_get', { ids: [ids[1]] });
      expect(res.text).not.toMatch(/disk|full/i);
      expect(res.isError).toBe(false);
      expect((res.json.records as { id: string }[]).map((r) => r.id)).toEqual([ids[1]]);
    } finally {
      await mcp.close();
      fs!.free();
    }
    // the side write really was refused: the first read was counted, the second could not be
    const db = new Database(join(fs!.dir, '.agentctx', 'agentctx.db'), { readonly: true });
    const counts = db.prepare('SELECT id, access_count FROM records WHERE id IN (?, ?)').all(ids[0], ids[1]);
    db.close();
    expect(counts).toEqual(
      expect.arrayContaining([
        { id: ids[0], access_count: 1 },
        { id: ids[1], access_count: 0 },
      ]),
    );
  });
});
