import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * One run of an agent's CLI as an extraction backend (`claude -p`, `codex exec`): the prompt on
 * stdin, stdout kept, and nothing left behind. A hard timeout kills its whole process group (it
 * is started as a group leader), and so does this process exiting while it runs. Where
 * coreutils' `timeout` exists, the run is started under it too, with a little more time: if
 * this process is killed outright (SIGKILL runs no exit handler), the child still ends.
 */

export interface RunOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
  pid: number | undefined;
}

interface ChildRun {
  bin: string;
  args: string[];
  /** Written to stdin, which is then closed. */
  input: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
}

const MAX_STDOUT = 8 * 1024 * 1024;

function killGroup(pid: number | undefined): void {
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** coreutils' `timeout`, where the system has it (not on Windows, nor on a stock macOS). */
const TIMEOUT_BINS = ['/usr/bin/timeout', '/bin/timeout'];

/** Seconds the `timeout` backstop allows past our own timer, and before its SIGKILL. */
const BACKSTOP_GRACE_S = 5;

/** The command line for one run: under `timeout` when available, else the CLI itself. */
function boundedCommand(bin: string, args: string[], timeoutMs: number): [string, string[]] {
  const backstop = process.platform === 'win32' ? undefined : TIMEOUT_BINS.find((p) => existsSync(p));
  if (!backstop) return [bin, args];
  const seconds = Math.ceil(timeoutMs / 1000) + BACKSTOP_GRACE_S;
  return [backstop, ['-k', String(BACKSTOP_GRACE_S), String(seconds), bin, ...args]];
}

export function runChild(run: ChildRun): Promise<RunOutcome> {
  return new Promise((resolve) => {
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const [command, argv] = boundedCommand(run.bin, run.args, run.timeoutMs);
    const child = spawn(command, argv, {
      cwd: run.cwd,
      env: run.env,
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
    });
    const onExit = () => killGroup(child.pid);
    process.once('exit', onExit);
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup(child.pid);
    }, run.timeoutMs);
    child.stdout.on('data', (d: Buffer) => {
      if (stdout.length < MAX_STDOUT) stdout += d.toString('utf8');
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString('utf8')).slice(-4000);
    });
    child.stdin.on('error', () => {});
    child.stdin.end(run.input);
    const done = (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      process.removeListener('exit', onExit);
      // whatever it started goes with it
      killGroup(child.pid);
      resolve({ code, signal, stdout, stderr, timedOut, pid: child.pid });
    };
    child.on('error', (err) => {
      stderr += String(err);
      done(null, null);
    });
    child.on('close', done);
  });
}
