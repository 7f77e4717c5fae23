import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../support/cli.js';

const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');

interface PackJson {
  files: { path: string; size: number }[];
}

describe('the published tarball (npm pack --dry-run)', () => {
  it('builds on prepack and carries README, LICENSE, the bin and every bundle, nothing else', () => {
    const start = Date.now();
    const res = spawnSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(res.status, res.stderr).toBe(0);
    const [pack] = JSON.parse(res.stdout) as PackJson[];
    const files = new Map(pack!.files.map((f) => [f.path, f.size]));

    for (const doc of ['README.md', 'LICENSE']) {
      expect(files.has(doc), doc).toBe(true);
      expect(files.get(doc), doc).toBe(statSync(join(REPO_ROOT, doc)).size);
      // postpack removed the copies again
      expect(existsSync(join(PACKAGE_ROOT, doc)), doc).toBe(false);
    }
    const hookNames = [
      ...(
        /export const HOOK_NAMES = \[([^\]]*)\]/.exec(
          readFileSync(join(PACKAGE_ROOT, 'src', 'hooks', 'event.ts'), 'utf8'),
        )?.[1] ?? ''
      ).matchAll(/'([a-z-]+)'/g),
    ].map((m) => m[1]);
    expect(hookNames.length).toBeGreaterThan(0);
    const bundles = [
      'bin/agentctx.cjs',
      'dist/cli.js',
      'dist/mcp.js',
      'dist/hook.cjs',
      'dist/sqlite-driver.cjs',
      ...hookNames.map((e) => `dist/hook-${e}.cjs`),
    ];
    for (const file of bundles) expect(files.has(file), file).toBe(true);
    for (const path of files.keys())
      expect(path, path).toMatch(/^(README\.md|LICENSE|package\.json|bin\/[^/]+|dist\/[^/]+)$/);
    // prepack ran the build: the bundles in the tarball are fresh
    expect(res.stderr).toMatch(/prepack/);
    expect(statSync(join(PACKAGE_ROOT, 'dist', 'cli.js')).mtimeMs).toBeGreaterThanOrEqual(start - 1000);
  }, 150_000);
});
