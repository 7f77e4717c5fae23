import { spawnSync } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { expect } from 'vitest';
import { CLAUDE_BIN, claudeBinDir, claudeOffline, processWithEnv } from './claude.js';
import { assertIsolatedEnv, isolatedEnv, type RunResult, spawnCollect } from './cli.js';
import { packInCopy } from './pack-copy.js';

/**
 * What the new user's walk-through (test/e2e/new-user-walk.test.ts) needs beyond the shared
 * support: both packages packed and installed from their tarballs into a throwaway prefix with
 * the registry unreachable, the environment of a user whose PATH holds that install and the real
 * `claude`, and a look at what is left on disk.
 */

export interface Installed {
  prefix: string;
  /** `<prefix>/bin/agentctx`: what the user's shell runs. */
  bin: string;
  /** How long packing and installing took, for the log. */
  ms: { pack: number; install: number };
}

/** `npm pack` both packages (their prepack builds a fresh bundle), then `npm install -g` the tarballs, offline. */
export function packAndInstall(root: string): Installed {
  const packs = join(root, 'packs');
  mkdirSync(packs, { recursive: true });
  const t0 = Date.now();
  for (const pkg of ['agentctx', 'agentctx-ui'] as const) {
    const packed = packInCopy(pkg, { tarballTo: packs });
    packed.cleanup();
    expect(packed.status, `npm pack ${pkg}: ${packed.stderr}`).toBe(0);
  }
  const tarballs = readdirSync(packs).filter((f) => f.endsWith('.tgz'));
  expect(tarballs.sort()).toEqual([
    expect.stringMatching(/^agentctxhq-agentctx-\d+\.\d+\.\d+\.tgz$/),
    expect.stringMatching(/^agentctxhq-agentctx-ui-\d+\.\d+\.\d+\.tgz$/),
  ]);
  const t1 = Date.now();
  const prefix = join(root, 'prefix');
  const install = spawnSync(
    'npm',
    [
      'install',
      '-g',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--prefix',
      prefix,
      ...tarballs.map((f) => join(packs, f)),
    ],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        // nothing may come from a registry or a cache: a dependency would fail the install
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_cache: join(root, 'npm-cache'),
        npm_config_fetch_retries: '0',
        npm_config_offline: 'false',
      },
    },
  );
  expect(install.status, `npm install -g: ${install.stderr}`).toBe(0);
  return { prefix, bin: join(prefix, 'bin', 'agentctx'), ms: { pack: t1 - t0, install: Date.now() - t1 } };
}

/**
 * A user's environment: a throwaway HOME and TMPDIR, the defaults for everything else (no
 * AGENTCTX_* of the test's own), and on PATH the installed agentctx, the real `claude`, the Node
 * the tests run on, the system. The model API is the fake one on 127.0.0.1.
 */
export function userEnv(home: string, tmp: string, prefix: string, apiUrl: string): NodeJS.ProcessEnv {
  if (!CLAUDE_BIN) throw new Error('node_modules/.bin/claude is not installed');
  mkdirSync(home, { recursive: true });
  mkdirSync(tmp, { recursive: true });
  const path = [
    join(prefix, 'bin'),
    claudeBinDir(dirname(home)),
    dirname(process.execPath),
    '/usr/local/bin',
    '/usr/bin',
    '/bin',
  ].join(':');
  const env = isolatedEnv(home, {
    PATH: path,
    TMPDIR: tmp,
    // where this user's `npm install -g` and `npm uninstall -g` go
    npm_config_prefix: prefix,
    ...claudeOffline(apiUrl),
  });
  // a new user sets none of these: the defaults under HOME and TMPDIR are what is walked
  // (~/.agentctx, ~/.claude, ~/.claude.json, $TMPDIR)
  delete env.AGENTCTX_HOME;
  delete env.AGENTCTX_TMPDIR;
  delete env.CLAUDE_CONFIG_DIR;
  return env;
}

/** Run a command of the user's PATH (asynchronously: the fake API lives in this process). */
export async function sh(
  env: NodeJS.ProcessEnv,
  cwd: string,
  line: string,
  opts: { input?: string; timeoutMs?: number } = {},
): Promise<RunResult> {
  assertIsolatedEnv(env);
  const r = await spawnCollect('/bin/sh', ['-c', line], {
    cwd,
    env,
    input: opts.input,
    timeoutMs: opts.timeoutMs ?? 60_000,
  });
  return { code: r.code ?? -1, stdout: r.stdout, stderr: r.stderr };
}

/** Every file under `dir` (relative paths), following no symlink. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p, { throwIfNoEntry: false });
      if (st?.isDirectory()) walk(p);
      else out.push(relative(dir, p));
    }
  };
  walk(dir);
  return out;
}

/**
 * The README's "Removing agentctx" commands, one per line, comments cut: the walk runs them as
 * printed, in that order.
 */
export function readmeRemoval(readme: string): string[] {
  const at = readme.indexOf('**Removing agentctx**');
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at))?.[1] ?? '';
  return block
    .split('\n')
    .map((l) => l.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/** A file's bytes, or null when it does not exist. */
export function bytes(path: string): Buffer | null {
  return existsSync(path) ? readFileSync(path) : null;
}

/**
 * Wait (never kill) until the detached work the user's hooks started (extraction,
 * consolidation) has ended: no process left with this HOME. False when `ms` ran out first.
 */
export async function untilQuiet(home: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (processWithEnv(`HOME=${home}\0`)) {
    if (Date.now() > until) return false;
    await new Promise((r) => setTimeout(r, 200));
  }
  return true;
}
