import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built entry point, as a user's PATH would run it. `npm test` builds first. */
export const BIN = join(PACKAGE_ROOT, 'bin', 'agentctx.cjs');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** An environment that can never reach the real ~/.agentctx or ~/.claude. */
export function isolatedEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    AGENTCTX_TMPDIR: join(home, 'tmp'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ...extra,
  };
  return env;
}

/** Run the built `agentctx` as a child process. */
export function runAgentctx(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): RunResult {
  const res = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    input: opts.input ?? '',
    encoding: 'utf8',
    timeout: opts.timeoutMs ?? 20_000,
  });
  return { code: res.status ?? -1, stdout: res.stdout ?? '', stderr: res.stderr ?? '' };
}

/** Run with --json and parse the one JSON object it prints. */
export function runJson<T = Record<string, unknown>>(
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string },
): { code: number; json: T; stderr: string } {
  const res = runAgentctx([...args, '--json'], opts);
  let json: T;
  try {
    json = JSON.parse(res.stdout) as T;
  } catch {
    throw new Error(`not one JSON object (exit ${res.code}): ${res.stdout}\n${res.stderr}`);
  }
  return { code: res.code, json, stderr: res.stderr };
}

/**
 * Run a command without blocking this process (a fake API or server may live in it): stdout and
 * stderr collected, stdin written and closed when given (else ignored), killed past `timeoutMs`.
 * Rejects only when the command cannot be started.
 */
export function spawnCollect(
  command: string,
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (d: Buffer) => {
      stdout += d.toString('utf8');
    });
    child.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    if (opts.input !== undefined) {
      child.stdin?.on('error', () => {});
      child.stdin?.end(opts.input);
    }
  });
}
