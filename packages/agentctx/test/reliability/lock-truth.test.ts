import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/app/project.js';
import { isolatedEnv, runAgentctx } from '../support/cli.js';
import { mountSmallFs, type SmallFs } from '../support/fs-faults.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * "Already running" only when a live process holds the lock. Before the fix any failure to
 * create the lock file other than "exists" read as "held": on a full disk or a read-only home
 * `consolidate` printed "already running for this project; nothing to do" and `extract`
 * "another extraction is running", both exit 0, with no lock held by anyone.
 */

let t: ReturnType<typeof tempDir>;
let fs: SmallFs | undefined;
let skipReason = '';
let repo: string;
let env: NodeJS.ProcessEnv;
let home: string;
let transcript: string;

beforeAll(() => {
  t = tempDir('agentctx-locks-');
  repo = fakeRepo(t.path, 'proj', 'git@github.com:acme/locks.git');
  transcript = join(t.path, 'session.jsonl');
  writeFileSync(
    transcript,
    `${JSON.stringify({ type: 'user', message: { role: 'user', content: 'we decided to use Redis' } })}\n`,
  );
  const mounted = mountSmallFs(join(t.path, 'fs'), 4096);
  if (typeof mounted === 'string') {
    skipReason = mounted;
    // without a mount, a read-only locks folder still works for a user other than root
    home = join(t.path, 'home');
  } else {
    fs = mounted;
    home = fs.dir;
  }
  env = isolatedEnv(home);
  mkdirSync(join(home, 'tmp'), { recursive: true });
  const r = runAgentctx(['record', '--type', 'decision', '--title', 'Cache', '--body', 'Use Redis.'], {
    cwd: repo,
    env,
  });
  expect(r.code).toBe(0);
  mkdirSync(join(home, '.agentctx', 'locks'), { recursive: true });
});

afterAll(() => {
  fs?.unmount();
  t.cleanup();
});

function expectLockError(): void {
  const c = runAgentctx(['consolidate'], { cwd: repo, env });
  expect(c.stdout).not.toMatch(/already running/);
  expect(c.code).not.toBe(0);
  expect(c.stderr.trim()).toMatch(/^agentctx: cannot take the lock .*consolidate-.*\.lock: /);
  const e = runAgentctx(['extract', '--session-id', 'lock-s1', '--transcript', transcript], {
    cwd: repo,
    env,
  });
  expect(e.stdout).not.toMatch(/another extraction/);
  expect(e.code).not.toBe(0);
  expect(e.stderr.trim()).toMatch(/^agentctx: cannot take the lock .*extract-.*\.lock: /);
  // nothing left behind that a later run would mistake for a holder
  expect(readdirSync(join(home, '.agentctx', 'locks')).filter((f) => f.endsWith('.lock'))).toEqual([]);
}

describe('a lock that cannot be created is an error, not a holder', () => {
  it('on a full disk', (c) => {
    if (!fs) c.skip(skipReason);
    fs!.fill();
    try {
      expectLockError();
    } finally {
      fs!.free();
    }
  });

  it('on a read-only home', (c) => {
    const locks = join(home, '.agentctx', 'locks');
    if (fs) fs.readOnly();
    else if (process.getuid?.() !== 0) chmodSync(locks, 0o500);
    else c.skip(`no read-only home possible: ${skipReason}, and root ignores permissions`);
    try {
      expectLockError();
    } finally {
      if (fs) fs.readWrite();
      else chmodSync(locks, 0o700);
    }
  });
});

describe('a lock held by a live process still means "already running"', () => {
  it('a live holder skips, exit 0; a dead holder is taken over', () => {
    const projectId = resolveProject(repo).id;
    // generation 0 of the lock (`<name>.<n>.lock`, see app/lock.ts)
    const lockFile = join(home, '.agentctx', 'locks', `consolidate-${projectId}.0.lock`);
    writeFileSync(lockFile, JSON.stringify({ pid: process.pid, at: Date.now() }));
    const held = runAgentctx(['consolidate', '--json'], { cwd: repo, env });
    expect(held.code).toBe(0);
    expect(JSON.parse(held.stdout)).toMatchObject({ skipped: 'locked' });
    // a pid that cannot be running (above the kernel's pid_max)
    writeFileSync(lockFile, JSON.stringify({ pid: 2 ** 22 + 17, at: Date.now() }));
    const taken = runAgentctx(['consolidate', '--json'], { cwd: repo, env });
    expect(taken.code).toBe(0);
    expect(JSON.parse(taken.stdout).skipped).toBeUndefined();
    for (const f of readdirSync(join(home, '.agentctx', 'locks')))
      rmSync(join(home, '.agentctx', 'locks', f));
  });
});
