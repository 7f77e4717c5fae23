import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runAgentctx, spawnCollect } from '../support/cli.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * `export --out` onto something that is not a regular file. Before the fix, the atomic write
 * (write a temporary file, rename it over the target) replaced a device node with a regular
 * file (as root it replaced /dev/full) and a FIFO the same way; a directory gave a raw EISDIR.
 * Device nodes are made here with mknod, in a temporary folder: the real /dev is never a target.
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
let canMknod = false;

function mknod(path: string, major: number, minor: number): boolean {
  try {
    execFileSync('mknod', [path, 'c', String(major), String(minor)], { stdio: 'ignore' });
    return statSync(path).isCharacterDevice();
  } catch {
    return false;
  }
}

beforeAll(() => {
  t = tempDir('agentctx-export-targets-');
  repo = fakeRepo(t.path, 'proj', 'git@github.com:acme/exports.git');
  env = isolatedEnv(t.path);
  const r = runAgentctx(['record', '--type', 'decision', '--title', 'Queue', '--body', 'Use SQS.'], {
    cwd: repo,
    env,
  });
  expect(r.code).toBe(0);
  canMknod = mknod(join(t.path, 'probe-null'), 1, 3);
  if (!canMknod) console.warn('mknod not permitted here: the device-node cases are skipped');
});
afterAll(() => t.cleanup());

describe('export --out onto non-regular targets', () => {
  it('a character device (null) is written in place and stays a device', (ctx) => {
    if (!canMknod) ctx.skip();
    const dev = join(t.path, 'null-dev');
    expect(mknod(dev, 1, 3)).toBe(true);
    const r = runAgentctx(['export', '--out', dev], { cwd: repo, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(statSync(dev).isCharacterDevice()).toBe(true);
  });

  it('a full device (ENOSPC) stays a device and the failure is a one-line error, exit non-zero', (ctx) => {
    if (!canMknod) ctx.skip();
    const dev = join(t.path, 'full-dev');
    expect(mknod(dev, 1, 7)).toBe(true);
    const r = runAgentctx(['export', '--out', dev], { cwd: repo, env });
    expect(r.code).not.toBe(0);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/no space left/i);
    expect(statSync(dev).isCharacterDevice()).toBe(true);
  });

  it('a FIFO is refused, left a FIFO, and nothing blocks', async () => {
    const fifo = join(t.path, 'out.fifo');
    execFileSync('mkfifo', [fifo]);
    const r = await spawnCollect(process.execPath, [BIN, 'export', '--out', fifo], {
      cwd: repo,
      env,
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`agentctx: ${fifo} is not a regular file (a FIFO); refused`);
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it('a directory gives a clear one-line error and stays a directory', () => {
    const dir = join(t.path, 'a-dir');
    mkdirSync(dir);
    const r = runAgentctx(['export', '--out', dir], { cwd: repo, env });
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(`agentctx: ${dir} is not a regular file (a directory); refused`);
    expect(statSync(dir).isDirectory()).toBe(true);
  });

  // issue 31 #11: `export --out /nonexistent/dir/x.md` created the folders and exited 0
  it('a missing parent folder is an error: nothing is created', () => {
    for (const depth of [1, 2, 3]) {
      const top = join(t.path, `missing-${depth}`);
      const parent = join(top, ...Array.from({ length: depth - 1 }, (_, i) => `d${i}`));
      const r = runAgentctx(['export', '--out', join(parent, 'x.md')], { cwd: repo, env });
      expect(r.code).toBe(2);
      expect(r.stderr.trim()).toBe(`agentctx: no folder ${parent}: create it first, or write elsewhere`);
      expect(existsSync(top)).toBe(false);
    }
    // a file where the folder should be
    const file = join(t.path, 'plain-file');
    writeFileSync(file, 'x');
    const r = runAgentctx(['export', '--out', join(file, 'x.md')], { cwd: repo, env });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file} is not a folder`);
  });

  it('a regular file, new or existing, is still written whole', () => {
    const file = join(t.path, 'export.md');
    for (let i = 0; i < 2; i++) {
      const r = runAgentctx(['export', '--out', file], { cwd: repo, env });
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toContain('Use SQS.');
    }
  });
});
