import { spawn, spawnSync } from 'node:child_process';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realHome } from './real-home-guard.js';

export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The built entry point, as a user's PATH would run it. `npm test` builds first. */
export const BIN = join(PACKAGE_ROOT, 'bin', 'agentctx.cjs');

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Throw when a child started with `env` would use the real user's ~/.agentctx or ~/.claude
 * (the home V8 caches, stores and settings go to): HOME missing or the real one with no
 * AGENTCTX_HOME / CLAUDE_CONFIG_DIR of its own. Checked by every spawn of agentctx or claude
 * below, so the test that forgot names itself; support/real-home-guard.ts catches the rest.
 */
export function assertIsolatedEnv(env: NodeJS.ProcessEnv | undefined): void {
  const real = realHome();
  const home = env?.HOME || real;
  const under = (p: string, root: string) => p === root || p.startsWith(root + sep);
  for (const [name, path, root] of [
    ['AGENTCTX_HOME', resolve(env?.AGENTCTX_HOME || join(home, '.agentctx')), join(real, '.agentctx')],
    ['CLAUDE_CONFIG_DIR', resolve(env?.CLAUDE_CONFIG_DIR || join(home, '.claude')), join(real, '.claude')],
  ] as const) {
    if (under(path, root))
      throw new Error(
        `a test would run agentctx with ${name} in the real home (${path}): use isolatedEnv (test/support/cli.ts)`,
      );
  }
}

/** Whether `command args` starts agentctx (any copy of its bin) or Claude Code. */
function isOurs(command: string, args: readonly string[]): boolean {
  if (basename(command) === 'claude') return true;
  return command === process.execPath && args.some((a) => a.endsWith('agentctx.cjs'));
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
  assertIsolatedEnv(opts.env);
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
  opts: { cwd: string; env: NodeJS.ProcessEnv; input?: string; timeoutMs?: number },
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
  if (isOurs(command, args)) assertIsolatedEnv(opts.env);
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
