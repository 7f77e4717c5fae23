import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SEMANTIC_PACKAGES } from '../../../src/app/semantic-runtime.js';
import { npmInstallCommand } from '../../../src/cli/semantic-install.js';
import { PACKAGE_ROOT } from '../../support/cli.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The default install is keyword-only; `agentctx init --semantic` puts transformers.js into
 * `<agentctx home>/semantic`, and the embedder loads it from there. Here: an install holding
 * only what the package depends on (no transformers.js), whose home's semantic folder gets
 * the real transformers.js (linked from this checkout, instead of fetched by npm), and the
 * fixture model offline.
 */

const ROOT_MODULES = join(PACKAGE_ROOT, '..', '..', 'node_modules');

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

function keywordOnlyInstall(dir: string): string {
  const pkg = join(dir, 'pkg');
  mkdirSync(join(pkg, 'node_modules'), { recursive: true });
  cpSync(join(PACKAGE_ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
  cpSync(join(PACKAGE_ROOT, 'dist'), join(pkg, 'dist'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), readFileSync(join(PACKAGE_ROOT, 'package.json')));
  return join(pkg, 'bin', 'agentctx.cjs');
}

describe('the semantic layer installed into the agentctx home', () => {
  it('keyword-only until transformers.js is in <home>/semantic, then embeds with it', () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const bin = keywordOnlyInstall(t.path);
    const repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
    const home = join(t.path, '.agentctx');
    const env = {
      PATH: process.env.PATH,
      HOME: t.path,
      AGENTCTX_HOME: home,
      AGENTCTX_TMPDIR: join(t.path, 'tmp'),
      CLAUDE_CONFIG_DIR: join(t.path, '.claude'),
      AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
      AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
      NODE_PATH: '',
    };
    const run = (args: string[]) => {
      const r = spawnSync(process.execPath, [bin, ...args], {
        cwd: repo,
        env,
        encoding: 'utf8',
        timeout: 120_000,
      });
      return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
    };
    expect(
      run(['record', '--type', 'decision', '--title', 'Use SQLite', '--body', 'One file, WAL mode.']).code,
    ).toBe(0);
    const before = JSON.parse(run(['status', '--json']).stdout).embeddings;
    expect(before).toMatchObject({ status: 'off', runtime_installed: false });
    expect(before.reason).toMatch(/agentctx init --semantic installs it/);

    // what `npm install --prefix <home>/semantic @huggingface/transformers@…` leaves there
    const target = join(home, 'semantic', 'node_modules', '@huggingface');
    mkdirSync(target, { recursive: true });
    symlinkSync(join(ROOT_MODULES, '@huggingface', 'transformers'), join(target, 'transformers'));

    const after = JSON.parse(run(['status', '--json']).stdout).embeddings;
    expect(after).toMatchObject({
      status: 'on',
      runtime_installed: true,
      runtime_from: join(home, 'semantic'),
    });
    // init --semantic finds it there (no npm run) and the model present
    const init = run(['init', '--semantic', '--no-claude-cli', '--json']);
    expect(init.code, init.stderr).toBe(0);
    expect(JSON.parse(init.stdout)).toMatchObject({
      semantic: { status: 'present', from: 'home' },
      model: { status: 'present' },
    });
    const cons = run(['consolidate', '--json']);
    expect(cons.code, cons.stderr).toBe(0);
    const emb = JSON.parse(cons.stdout).embeddings;
    expect(emb.status).toBe('on');
    expect(emb.embedded).toBeGreaterThan(0);
    expect(emb.pending).toBe(0);
  }, 180_000);

  it('installs with the pinned versions into the home, without onnxruntime fetching GPU files', () => {
    const cmd = npmInstallCommand('/h/semantic', { '@huggingface/transformers': '4.3.2' }, { PATH: '/bin' });
    expect(cmd.command).toBe(process.platform === 'win32' ? 'npm.cmd' : 'npm');
    expect(cmd.args.slice(0, 3)).toEqual(['install', '--prefix', '/h/semantic']);
    expect(cmd.args).toContain('@huggingface/transformers@4.3.2');
    expect(cmd.args).toContain('--omit=dev');
    expect(cmd.env).toMatchObject({ PATH: '/bin', ONNXRUNTIME_NODE_INSTALL: 'skip' });
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    // the default install stays keyword-only: transformers.js is not a runtime dependency
    expect(Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })).not.toContain(
      '@huggingface/transformers',
    );
    // the version init --semantic pins is the one the tests run with
    expect(pkg.devDependencies['@huggingface/transformers']).toBe(
      SEMANTIC_PACKAGES['@huggingface/transformers'],
    );
  });
});
