import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../../src/database/migrations.js';
import { Db } from '../../../src/database/sqlite.js';
import { isolatedEnv, PACKAGE_ROOT } from '../../support/cli.js';
import { packInCopy, REPO_ROOT } from '../../support/pack-copy.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The published package as a user gets it: packed, installed globally with install scripts off
 * and the registry unreachable (nothing to download: no runtime dependency), then run under each
 * supported Node in turn on one store, the store an earlier version wrote on better-sqlite3
 * included. The other Nodes come from the registry (scripts/with-node.mjs, cached).
 */

// the lowest supported, the one running the tests, the newest (once each: the suites also run on 22.16)
const NODES = [...new Set(['22.16.0', process.versions.node, '26.12.1'])];
const t = tempDir('agentctx-node-versions-');
let prefix = '';
let bin = '';

function nodeBinary(version: string): string {
  if (version === process.versions.node) return process.execPath;
  const r = spawnSync(process.execPath, [join(REPO_ROOT, 'scripts', 'with-node.mjs'), version, '--print'], {
    encoding: 'utf8',
    timeout: 300_000,
  });
  if (r.status !== 0) throw new Error(`cannot get Node ${version}: ${r.stderr}`);
  return r.stdout.trim();
}

beforeAll(() => {
  const packs = join(t.path, 'packs');
  mkdirSync(packs);
  const packed = packInCopy('agentctx', { tarballTo: packs });
  expect(packed.status, packed.stderr).toBe(0);
  packed.cleanup();
  const tarball = readdirSync(packs).find((f) => f.endsWith('.tgz'));
  expect(tarball).toBeDefined();
  prefix = join(t.path, 'prefix');
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
      join(packs, tarball!),
    ],
    {
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        // nothing may come from a registry or a cache: a dependency would fail the install
        npm_config_registry: 'http://127.0.0.1:9/',
        npm_config_cache: join(t.path, 'npm-cache'),
        npm_config_fetch_retries: '0',
        npm_config_offline: 'false',
      },
    },
  );
  expect(install.status, install.stderr).toBe(0);
  bin = join(prefix, 'bin', 'agentctx');
}, 300_000);
afterAll(() => t.cleanup());

describe('the packed tarball, installed with scripts off and no registry', () => {
  it('has no runtime dependency and no install script', () => {
    const pkgDir = join(prefix, 'lib', 'node_modules', '@agentctxhq', 'agentctx');
    const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
    expect(pkg.dependencies ?? {}).toEqual({});
    expect(pkg.optionalDependencies ?? {}).toEqual({});
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(pkg.scripts?.[s], s).toBeUndefined();
    expect(existsSync(join(pkgDir, 'node_modules'))).toBe(false);
    expect(pkg.engines.node).toBe('>=22.16');
  });

  it('runs the demo and a real hook', () => {
    const home = join(t.path, 'demo-home');
    mkdirSync(home);
    const env = isolatedEnv(home);
    const demo = spawnSync(bin, ['demo'], { encoding: 'utf8', env, timeout: 120_000 });
    expect(demo.status, demo.stderr).toBe(0);
    expect(demo.stdout).toMatch(/SessionStart/);
    expect(demo.stderr).not.toMatch(/ExperimentalWarning/);
    const repo = fakeRepo(home, 'shop', 'git@github.com:acme/shop.git');
    const rec = spawnSync(
      bin,
      [
        'record',
        '--type',
        'decision',
        '--title',
        'Queue retries use backoff',
        '--body',
        'The webhook queue retries with exponential backoff.',
      ],
      { cwd: repo, env, encoding: 'utf8' },
    );
    expect(rec.status, rec.stderr).toBe(0);
    const hook = spawnSync(bin, ['hook', 'user-prompt-submit'], {
      cwd: repo,
      env,
      encoding: 'utf8',
      input: JSON.stringify({
        session_id: 's1',
        transcript_path: '/dev/null',
        cwd: repo,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'how do webhook queue retries back off?',
      }),
    });
    expect(hook.status).toBe(0);
    expect(hook.stderr).toBe('');
    expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext).toContain(
      'Queue retries use backoff',
    );
  }, 180_000);
});

describe("one install, one store, the user's Node changing from 22 to 24 to 26", () => {
  it('keeps working on a store an earlier version wrote with better-sqlite3', () => {
    const home = join(t.path, 'upgrade-home');
    mkdirSync(join(home, '.agentctx'), { recursive: true, mode: 0o700 });
    const db = join(home, '.agentctx', 'agentctx.db');
    copyFileSync(join(PACKAGE_ROOT, 'test', 'fixtures', 'stores', 'v0.3-better-sqlite3.db'), db);
    const repo = fakeRepo(home, 'legacy-shop', 'git@github.com:acme/legacy-shop.git');
    const env = isolatedEnv(home);
    const script = join(prefix, 'lib', 'node_modules', '@agentctxhq', 'agentctx', 'bin', 'agentctx.cjs');
    const written: string[] = [];
    for (const version of NODES) {
      const node = nodeBinary(version);
      const run = (args: string[], input?: string) =>
        spawnSync(node, [script, ...args], { cwd: repo, env, encoding: 'utf8', input, timeout: 60_000 });
      expect(run(['--version']).status).toBe(0);
      // what the earlier version wrote, and what each earlier Node wrote, is there
      const found = run(['search', 'postgres row-level locks', '--json']);
      expect(found.status, `${version}: ${found.stderr}`).toBe(0);
      expect(found.stdout).toContain('SQLite in WAL mode');
      for (const title of written)
        expect(run(['search', title, '--json']).stdout, `${version} sees ${title}`).toContain(title);
      const hook = run(
        ['hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `s-${version}`,
          transcript_path: '/dev/null',
          cwd: repo,
          hook_event_name: 'UserPromptSubmit',
          prompt: 'how often do webhook retries run?',
        }),
      );
      expect(hook.status).toBe(0);
      expect(hook.stderr, version).toBe('');
      expect(JSON.parse(hook.stdout).hookSpecificOutput.additionalContext, version).toContain(
        'Retry webhooks with exponential backoff',
      );
      const title = `Written under Node ${version}`;
      const rec = run([
        'record',
        '--type',
        'discovery',
        '--title',
        title,
        '--body',
        `A fact recorded while Node ${version} ran agentctx.`,
      ]);
      expect(rec.status, rec.stderr).toBe(0);
      written.push(title);
    }
    const check = new Db(db, { readonly: true });
    try {
      expect(check.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
      expect(check.prepare('SELECT COUNT(*) AS n FROM records').get()).toEqual({ n: 5 + NODES.length });
    } finally {
      check.close();
    }
  }, 300_000);

  it('on a Node older than 22.16 prints one line naming the version it needs', () => {
    const old = nodeBinary('22.15.1');
    const script = join(prefix, 'lib', 'node_modules', '@agentctxhq', 'agentctx', 'bin', 'agentctx.cjs');
    const cli = spawnSync(old, [script, 'status'], { encoding: 'utf8' });
    expect(cli.status).toBe(1);
    expect(cli.stderr).toBe('agentctx needs Node.js 22.16 or newer; this is v22.15.1\n');
    // a hook never breaks a session: the same line, exit 0, nothing on stdout
    const hook = spawnSync(old, [script, 'hook', 'session-start'], { encoding: 'utf8', input: '{}' });
    expect(hook.status).toBe(0);
    expect(hook.stdout).toBe('');
    expect(hook.stderr).toBe('agentctx needs Node.js 22.16 or newer; this is v22.15.1\n');
  }, 300_000);
});
