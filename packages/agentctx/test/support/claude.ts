import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BIN, isolatedEnv, PACKAGE_ROOT, spawnCollect } from './cli.js';

/**
 * Drive the real Claude Code client (`@anthropic-ai/claude-code`) offline: a throwaway HOME,
 * the fake Messages API on 127.0.0.1, telemetry and updates off, and the repository's built
 * `agentctx` first on PATH so the hooks that `agentctx init` registers run this checkout.
 */

/** `rel` in this package's folder or the nearest folder above that has it (node_modules). */
export function findUp(rel: string): string | null {
  let dir = PACKAGE_ROOT;
  for (;;) {
    const p = join(dir, rel);
    if (existsSync(p)) return p;
    const parent = dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** The `claude` binary of the devDependency, or null when it is not installed. */
export const CLAUDE_BIN: string | null = findUp(join('node_modules', '.bin', 'claude'));

/** A folder holding only an `agentctx` symlink to this checkout's bin (to put first on PATH). */
export function agentctxBinDir(parent: string): string {
  const dir = join(parent, 'bin');
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'agentctx');
  if (!existsSync(link)) symlinkSync(BIN, link);
  return dir;
}

/** A folder holding a `claude` symlink to the real client, for code that looks it up on PATH. */
export function claudeBinDir(parent: string): string {
  if (!CLAUDE_BIN) throw new Error('node_modules/.bin/claude is not installed');
  const dir = join(parent, 'claude-bin');
  mkdirSync(dir, { recursive: true });
  const link = join(dir, 'claude');
  if (!existsSync(link)) symlinkSync(CLAUDE_BIN, link);
  return dir;
}

/** What the real `claude` needs to run offline against the fake Messages API at `apiUrl`. */
export function claudeOffline(apiUrl: string): Record<string, string> {
  return {
    ANTHROPIC_BASE_URL: apiUrl,
    ANTHROPIC_API_KEY: 'sk-test',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    // claude refuses its permission bypass as root outside a sandbox
    ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
  };
}

/**
 * The environment of a hermetic Claude Code run: isolated HOME / AGENTCTX_HOME /
 * CLAUDE_CONFIG_DIR, the fake API, and PATH = our agentctx, node, the system.
 */
export function claudeEnv(
  home: string,
  apiUrl: string,
  extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
  const path = [agentctxBinDir(home), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(
    ':',
  );
  const env = isolatedEnv(home, {
    PATH: path,
    ...claudeOffline(apiUrl),
    ...extra,
  });
  return env;
}

export interface ClaudeRunOptions {
  cwd: string;
  env: NodeJS.ProcessEnv;
  prompt: string;
  resume?: string;
  allowedTools?: string[];
  settings?: string;
  extraArgs?: string[];
  timeoutMs?: number;
}

export interface ClaudeRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** The `--output-format json` result object, when stdout held one. */
  result: Record<string, unknown> | null;
  sessionId: string | null;
}

/**
 * Run `claude -p PROMPT --output-format json` as a child process. Asynchronous on purpose: the
 * fake API usually lives in this same process and must keep answering while claude runs.
 */
export async function runClaude(opts: ClaudeRunOptions): Promise<ClaudeRun> {
  if (!CLAUDE_BIN) throw new Error('node_modules/.bin/claude is not installed');
  const args = ['-p', opts.prompt, '--output-format', 'json'];
  if (opts.resume) args.push('--resume', opts.resume);
  if (opts.allowedTools?.length) args.push('--allowedTools', opts.allowedTools.join(' '));
  if (opts.settings) args.push('--settings', opts.settings);
  args.push(...(opts.extraArgs ?? []));
  const { code, stdout, stderr } = await spawnCollect(CLAUDE_BIN as string, args, {
    cwd: opts.cwd,
    env: opts.env,
    timeoutMs: opts.timeoutMs ?? 90_000,
  });
  let result: Record<string, unknown> | null = null;
  try {
    const parsed = JSON.parse(stdout.trim()) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      result = parsed as Record<string, unknown>;
  } catch {
    result = null;
  }
  const sid = result && typeof result.session_id === 'string' ? result.session_id : null;
  return { code, stdout, stderr, result, sessionId: sid };
}

/** A real git repository (claude -p needs no onboarding in one) with an origin remote. */
export function gitRepo(dir: string, origin: string): string {
  mkdirSync(dir, { recursive: true });
  const git = (...a: string[]) => {
    const r = spawnSync('git', a, { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`git ${a.join(' ')} failed: ${r.stderr}`);
  };
  git('init', '-q', '-b', 'main');
  git('remote', 'add', 'origin', origin);
  return dir;
}

/**
 * Poll `check` until it returns something other than undefined/null/false, or fail after
 * `timeoutMs` with `what` in the message. For work that happens in other processes (async
 * hooks, detached children): never a blind sleep.
 */
export async function waitFor<T>(
  check: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string | (() => string) } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 15_000);
  let lastError: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError instanceof Error ? ` (last error: ${lastError.message})` : '';
      const what = typeof opts.what === 'function' ? opts.what() : opts.what;
      throw new Error(
        `timed out after ${opts.timeoutMs ?? 15_000} ms waiting for ${what ?? 'a condition'}${why}`,
      );
    }
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 100));
  }
}

/** Is any process running with this exact `NAME=value\0` in its environment? (Linux /proc) */
export function processWithEnv(entry: string): boolean {
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').includes(entry)) return true;
    } catch {
      // gone, or not ours
    }
  }
  return false;
}

/**
 * Remove a throwaway HOME of the real `claude` once the detached agentctx children its hooks
 * started (extract, consolidate) have exited: waited for asynchronously, so a fake API in this
 * process keeps answering them, and never killed.
 */
export async function removeHomeAfterBackground(home: string): Promise<void> {
  const mine = `AGENTCTX_HOME=${join(home, '.agentctx')}\0`;
  await waitFor(() => !processWithEnv(mine), {
    timeoutMs: 30_000,
    what: 'background agentctx children',
  }).catch(() => undefined);
  rmSync(home, { recursive: true, force: true, maxRetries: 20, retryDelay: 250 });
}
