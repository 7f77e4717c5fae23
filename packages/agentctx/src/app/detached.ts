import { closeSync, existsSync, mkdirSync, renameSync, statSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openLogFile } from './log.js';

/**
 * Background work (CONTRACTS.md §inv-1: nothing resident) runs as a detached `agentctx <args>`
 * child that outlives the hook which started it. The hook returns at once; the child's output goes to
 * `<logs>/background.log`; its lifetime is bounded by a deadline loaded before the CLI
 * (`--import` of a tiny module) that fires whatever the child waits on, so even a hung child
 * exits. "At most one per project" is the
 * child command's job (app/lock.ts), since only it knows when its work is done.
 */

export const DEFAULT_DEADLINE_MS = 10 * 60_000;
const LOG_MAX_BYTES = 1024 * 1024;

export interface DetachedOptions {
  /** Arguments after `agentctx`, e.g. ['extract', '--session-id', id]. */
  args: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
  logsDir: string;
  /** Hard lifetime of the child; it exits with code 124 when reached. */
  deadlineMs?: number;
  /** The `bin/agentctx.cjs` of the running install; found automatically when omitted. */
  binPath?: string;
}

/**
 * The folder of the install this code runs from: the nearest folder above this file holding
 * bin/agentctx.cjs (dist/hook-*.cjs and dist/cli/*.js chunks sit at different depths, the sources
 * deeper still). Null when there is none (bundled elsewhere).
 */
export function installRoot(): string | null {
  try {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let i = 0; i < 4; i++, dir = dirname(dir))
      if (existsSync(join(dir, 'bin', 'agentctx.cjs'))) return dir;
  } catch {
    // not a file URL
  }
  return null;
}

/** The bin script of the install this code runs from. */
export function installedBinPath(): string {
  const root = installRoot();
  return root ? join(root, 'bin', 'agentctx.cjs') : (process.argv[1] ?? 'agentctx');
}

function openLog(logsDir: string): number | 'ignore' {
  try {
    mkdirSync(logsDir, { recursive: true, mode: 0o700 });
    const file = join(logsDir, 'background.log');
    try {
      if (statSync(file).size > LOG_MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no file yet
    }
    return openLogFile(file) ?? 'ignore';
  } catch {
    return 'ignore';
  }
}

/** How long after the deadline the watchdog kills a child whose own timer could not run. */
const KILL_GRACE_MS = 2000;

/**
 * A module body, loaded before the CLI, that ends the process at the deadline. Two clocks: a
 * timer on the main thread exits cleanly (code 124) when the event loop is free; a watchdog on
 * a thread of its own covers the case where it is not: a main thread blocked in a system call
 * (an open() of a FIFO, a read of a stalled mount) never runs its timers. The watchdog then
 * kills the child's whole process group (a detached child leads its own), helpers included.
 */
function deadlineModule(ms: number): string {
  const killAt = ms + KILL_GRACE_MS;
  const watchdog = [
    "const { writeSync } = require('node:fs');",
    'setTimeout(() => {',
    `  try { writeSync(2, 'agentctx: background deadline reached (${ms} ms) and the process did not end; killed\\n'); } catch {}`,
    "  try { process.kill(-process.pid, 'SIGKILL'); } catch {}",
    "  process.kill(process.pid, 'SIGKILL');",
    `}, ${killAt});`,
  ].join('\n');
  const code = [
    "import { Worker } from 'node:worker_threads';",
    `setTimeout(() => { process.stderr.write('agentctx: background deadline reached (${ms} ms)\\n'); process.exit(124); }, ${ms}).unref();`,
    `new Worker(${JSON.stringify(watchdog)}, { eval: true }).unref();`,
  ].join('\n');
  return `data:text/javascript,${encodeURIComponent(code)}`;
}

/**
 * Start `agentctx <args>` detached. Returns the child's pid (undefined when it could not be
 * started). Never throws.
 */
export function spawnDetached(opts: DetachedOptions): number | undefined {
  const deadline = Math.max(1000, Math.floor(opts.deadlineMs ?? DEFAULT_DEADLINE_MS));
  const bin = opts.binPath ?? installedBinPath();
  const fd = openLog(opts.logsDir);
  try {
    if (fd !== 'ignore') {
      writeSync(fd, `${new Date().toISOString()} [${process.pid}] spawn agentctx ${opts.args.join(' ')}\n`);
    }
    // loaded here, not at start-up: most hooks never spawn
    const { spawn } = createRequire(import.meta.url)(
      'node:child_process',
    ) as typeof import('node:child_process');
    const child = spawn(process.execPath, ['--import', deadlineModule(deadline), bin, ...opts.args], {
      cwd: opts.cwd,
      env: { ...opts.env, AGENTCTX_DETACHED: '1', AGENTCTX_DEADLINE_MS: String(deadline) },
      detached: true,
      stdio: ['ignore', fd, fd],
      windowsHide: true,
    });
    child.on('error', () => {
      // reported through the missing pid; nothing may reach the session
    });
    child.unref();
    return child.pid;
  } catch {
    return undefined;
  } finally {
    if (fd !== 'ignore') {
      try {
        closeSync(fd);
      } catch {
        // already closed
      }
    }
  }
}
