import {
  type Dirent,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

/**
 * A throwaway folder removed by `cleanup()`, after the background jobs that hooks started for
 * it have ended: a detached `agentctx consolidate` finishing later would create the folder again.
 */
export function tempDir(prefix = 'agentctx-test-'): { path: string; cleanup: () => void } {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return {
    path,
    cleanup: () => {
      reapBackground(path);
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** The hooks' logs under `dir` (an agentctx home at most three levels down). */
function hookLogs(dir: string, depth = 0): string[] {
  const out: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isFile() && e.name === 'hooks.log' && basename(dir) === 'logs') out.push(p);
    else if (e.isDirectory() && depth < 4 && e.name !== 'node_modules' && e.name !== '.git')
      out.push(...hookLogs(p, depth + 1));
  }
  return out;
}

/** Whether process `pid` runs, and (where /proc tells) works inside `dir`. */
function runsIn(pid: number, dir: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return (
      readlinkSync(`/proc/${pid}/cwd`).startsWith(dir) ||
      readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(dir)
    );
  } catch {
    return !existsSync('/proc/self'); // no /proc: assume it is ours and wait (never kill)
  }
}

/**
 * Wait (up to `waitMs`) for the background jobs the hooks under `dir` logged as spawned; kill
 * those still running inside `dir` after that.
 */
export function reapBackground(dir: string, waitMs = 10_000): void {
  const pids = new Set<number>();
  for (const log of hookLogs(dir))
    for (const m of readFileSync(log, 'utf8').matchAll(/spawned agentctx \S+ pid=(\d+)/g))
      pids.add(Number(m[1]));
  const deadline = Date.now() + waitMs;
  const nap = new Int32Array(new SharedArrayBuffer(4));
  for (const pid of pids) {
    while (runsIn(pid, dir) && Date.now() < deadline) Atomics.wait(nap, 0, 0, 50);
    if (runsIn(pid, dir) && existsSync('/proc/self')) {
      try {
        process.kill(-pid, 'SIGKILL'); // a detached job leads its own process group
      } catch {
        // gone meanwhile
      }
    }
  }
}

/** A git repository folder with an origin remote, made without running git. */
export function fakeRepo(parent: string, name: string, origin: string | null): string {
  const root = join(parent, name);
  mkdirSync(join(root, '.git'), { recursive: true });
  const remote = origin
    ? `[remote "origin"]\n\turl = ${origin}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`
    : '';
  writeFileSync(join(root, '.git', 'config'), `[core]\n\trepositoryformatversion = 0\n${remote}`);
  writeFileSync(join(root, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  return root;
}
