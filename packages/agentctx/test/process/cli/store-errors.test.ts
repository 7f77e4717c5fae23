import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx } from '../../support/cli.js';
import { mountSmallFs, type SmallFs } from '../../support/fs-faults.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Errors about the home and the store say what is wrong and what to do, in one line: a
 * damaged store names its file and `agentctx doctor` before SQLite's own words; the profile
 * export into a home that cannot be written says why (it used to be Node's ENOENT of the
 * folder it could not create, which names the wrong cause).
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
beforeAll(() => {
  t = tempDir('agentctx-store-errors-');
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/store-errors.git');
});
afterAll(() => t?.cleanup());

function homeWith(name: string): { env: NodeJS.ProcessEnv; db: string } {
  const home = join(t.path, name);
  mkdirSync(join(home, 'tmp'), { recursive: true });
  const env = isolatedEnv(home);
  const r = runAgentctx(
    ['record', '--type', 'decision', '--title', 'Ledger', '--body', 'Payments go through it.'],
    {
      cwd: repo,
      env,
    },
  );
  expect(r.code).toBe(0);
  return { env, db: join(home, '.agentctx', 'agentctx.db') };
}

function overwrite(path: string, offset: number, bytes: Buffer): void {
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, bytes, 0, bytes.length, offset);
  } finally {
    closeSync(fd);
  }
}

describe('a damaged store', () => {
  it('is named, with agentctx doctor as the way out and SQLite’s words last; --json says store_damaged', () => {
    const h = homeWith('garbage-header');
    // a garbage header (a cut-short file gives SQLite's "malformed" the same way)
    overwrite(h.db, 0, Buffer.alloc(100, 0x41));
    for (const args of [
      ['search', 'ledger'],
      ['status', '--verbose'],
      ['record', '--type', 'decision', '--title', 'x', '--body', 'y'],
    ]) {
      const r = runAgentctx(args, { cwd: repo, env: h.env });
      expect(r.code, args[0]).toBe(1);
      const lines = r.stderr.trim().split('\n');
      expect(lines, args[0]).toHaveLength(1);
      expect(lines[0]).toContain(`agentctx: the store ${h.db} is damaged; run \`agentctx doctor\``);
      expect(lines[0]).toMatch(/— SQLite: (file is not a database|database disk image is malformed)$/);
    }
    const j = runAgentctx(['search', 'ledger', '--json'], { cwd: repo, env: h.env });
    expect(JSON.parse(j.stdout)).toMatchObject({ code: 'store_damaged', path: h.db });
  });
});

describe('the profile export into a home that cannot be written', () => {
  it('a path under a file: says which path is not a folder, exit 2, nothing written', () => {
    const h = homeWith('profile-under-file');
    // the profile folder's place is taken by a file
    writeFileSync(join(h.env.AGENTCTX_HOME!, 'profile'), 'not a folder');
    const r = runAgentctx(['export', '--profile'], { cwd: repo, env: h.env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      `cannot write the profile export to ${join(h.env.AGENTCTX_HOME!, 'profile', 'profile.md')}`,
    );
    expect(r.stderr).toContain('is not a folder; nothing was written');
  });

  let fs: SmallFs | string = '';
  beforeAll(() => {
    fs = mountSmallFs(join(t.path, 'ro-home'), 4096);
  });
  afterAll(() => {
    if (typeof fs !== 'string') fs.unmount();
  });

  it('a read-only file system: says so, not ENOENT (a tmpfs; skipped where it cannot be mounted)', (c) => {
    if (typeof fs === 'string') c.skip(fs);
    const small = fs as SmallFs;
    const home = small.dir;
    mkdirSync(join(home, 'tmp'), { recursive: true });
    const env = isolatedEnv(home);
    expect(
      runAgentctx(['record', '--type', 'preference', '--title', 'Tabs', '--body', 'Use tabs.'], {
        cwd: repo,
        env,
      }).code,
    ).toBe(0);
    small.readOnly();
    try {
      const r = runAgentctx(['export', '--profile'], { cwd: repo, env });
      expect(r.code).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(
        `agentctx: cannot write the profile export to ${join(home, '.agentctx', 'profile', 'profile.md')}: the file system is read-only; nothing was written`,
      );
      expect(r.stderr).not.toMatch(/^agentctx: ENOENT/);
    } finally {
      small.readWrite();
    }
  });
});
