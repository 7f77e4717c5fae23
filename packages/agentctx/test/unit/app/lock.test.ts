import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tryLock } from '../../../src/app/lock.js';
import { olderTryLock } from '../../support/older-lock.js';
import { tempDir } from '../../support/tmp.js';

const tmp = tempDir('agentctx-lock-');
afterAll(() => tmp.cleanup());

let n = 0;
function locksDir(): string {
  const dir = join(tmp.path, `locks-${n++}`);
  mkdirSync(dir);
  return dir;
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const res = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(res.stdout);
}

describe('the lock file of versions before generations (<name>.lock)', () => {
  it('is waited on while an older version holds it', () => {
    const dir = locksDir();
    // held by a live process, as an older version writes it
    writeFileSync(join(dir, 'job.lock'), JSON.stringify({ pid: process.ppid, at: Date.now() }));
    expect(tryLock(dir, 'job')).toBeNull();
    // created, not yet written: the older version is between its open and its write
    writeFileSync(join(dir, 'job.lock'), '');
    expect(tryLock(dir, 'job')).toBeNull();
  });

  it('is taken over when its holder is gone, or it is older than the stale age', () => {
    for (const held of [
      { pid: deadPid(), at: Date.now() },
      { pid: process.ppid, at: Date.now() - 11 * 60_000 },
    ]) {
      const dir = locksDir();
      writeFileSync(join(dir, 'job.lock'), JSON.stringify(held));
      const lock = tryLock(dir, 'job');
      expect(lock).not.toBeNull();
      // now held by this process, in the form an older version reads
      const now = JSON.parse(readFileSync(join(dir, 'job.lock'), 'utf8')) as { pid: number; at: number };
      expect(now.pid).toBe(process.pid);
      lock!.release();
      expect(existsSync(join(dir, 'job.lock'))).toBe(false);
    }
    // a torn file an older version left long ago is not held either
    const dir = locksDir();
    writeFileSync(join(dir, 'job.lock'), '{"pid":');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'job.lock'), past, past);
    expect(tryLock(dir, 'job')).not.toBeNull();
  });

  it('tells an older version that a current one holds the lock, and lets it go on release', () => {
    const dir = locksDir();
    const lock = tryLock(dir, 'job');
    expect(lock).not.toBeNull();
    expect(olderTryLock(dir, 'job')).toBeNull();
    lock!.release();
    const older = olderTryLock(dir, 'job');
    expect(older).not.toBeNull();
    expect(tryLock(dir, 'job')).toBeNull();
    older!.release();
    expect(tryLock(dir, 'job')).not.toBeNull();
  });
});
