import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnDetached } from '../../src/app/detached.js';
import { BIN, isolatedEnv, spawnCollect } from '../support/cli.js';
import { gone, readIfExists } from '../support/proc.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * A FIFO (or any file that is not a regular one) where agentctx expects a file must never hang
 * it: a synchronous open() of a FIFO with no writer blocks the whole event loop, timers included.
 * Before the fix, `agentctx extract --transcript <fifo>` hung for ever, and the background
 * extraction the Stop hook started on such a path outlived its deadline (alive at 54 s with 2 s).
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;
let fifo: string;

beforeAll(() => {
  t = tempDir('agentctx-nonregular-');
  repo = fakeRepo(t.path, 'proj', 'git@github.com:acme/nonregular.git');
  env = isolatedEnv(t.path);
  mkdirSync(join(t.path, 'tmp'), { recursive: true });
  fifo = join(t.path, 'transcript.fifo');
  execFileSync('mkfifo', [fifo]);
});
afterAll(() => t.cleanup());

describe('non-regular files given as transcripts', () => {
  it('extract --transcript <fifo> refuses at once with a clear error', async () => {
    const t0 = Date.now();
    const r = await spawnCollect(
      process.execPath,
      [BIN, 'extract', '--session-id', 's-fifo', '--transcript', fifo],
      { cwd: repo, env, timeoutMs: 15_000 },
    );
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not a regular file \(a FIFO\)/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('extract --transcript <directory> or <device> is refused the same way, not a raw EISDIR', async () => {
    for (const [path, kind] of [
      [t.path, 'a directory'],
      ['/dev/null', 'a character device'],
    ] as const) {
      const r = await spawnCollect(
        process.execPath,
        [BIN, 'extract', '--session-id', 's-dir', '--transcript', path],
        { cwd: repo, env, timeoutMs: 15_000 },
      );
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(`not a regular file (${kind})`);
      expect(r.stderr).not.toMatch(/EISDIR/);
    }
  });

  it('the Stop hook with a FIFO transcript_path: the hook returns and the background job ends', async () => {
    const t0 = Date.now();
    const r = await spawnCollect(process.execPath, [BIN, 'hook', 'stop'], {
      cwd: repo,
      env: { ...env, AGENTCTX_BACKGROUND_DEADLINE_MS: '2000' },
      input: JSON.stringify({
        session_id: 'stop-fifo',
        transcript_path: fifo,
        cwd: repo,
        hook_event_name: 'Stop',
      }),
      timeoutMs: 15_000,
    });
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe('');
    expect(Date.now() - t0).toBeLessThan(5_000);
    const hooksLog = readFileSync(join(t.path, '.agentctx', 'logs', 'hooks.log'), 'utf8');
    const pid = Number(/spawned agentctx extract pid=(\d+)/.exec(hooksLog)?.[1]);
    expect(pid).toBeGreaterThan(0);
    expect(await gone(pid, 8_000)).toBe(true);
    const background = readIfExists(join(t.path, '.agentctx', 'logs', 'background.log'));
    expect(background).toMatch(/not a regular file \(a FIFO\)/);
  });
});

describe('detached children have a deadline that fires whatever they wait on', () => {
  it('a child blocked in a synchronous open() of a FIFO is ended at its deadline', async () => {
    const script = join(t.path, 'blocks.cjs');
    const other = join(t.path, 'other.fifo');
    execFileSync('mkfifo', [other]);
    // open() of a FIFO nobody writes to: the thread, and so the event loop, sleeps in the kernel
    writeFileSync(script, "require('node:fs').openSync(process.argv[2], 'r');\n");
    const t0 = Date.now();
    const pid = spawnDetached({
      args: [other],
      cwd: t.path,
      env,
      logsDir: join(t.path, 'detached-logs'),
      deadlineMs: 1000,
      binPath: script,
    });
    expect(pid).toBeGreaterThan(0);
    const ended = await gone(pid!, 10_000);
    if (!ended) process.kill(-pid!, 'SIGKILL');
    expect(ended).toBe(true);
    expect(Date.now() - t0).toBeLessThan(8_000);
    expect(readIfExists(join(t.path, 'detached-logs', 'background.log'))).toMatch(/deadline/);
  });
});
