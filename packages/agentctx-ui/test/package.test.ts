import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const REPO_ROOT = join(PACKAGE_ROOT, '..', '..');

describe('the published dashboard tarball (npm pack --dry-run)', () => {
  it('builds on prepack and carries README, LICENSE, the server and the page', () => {
    const start = Date.now();
    const res = spawnSync('npm', ['pack', '--dry-run', '--json'], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, npm_config_loglevel: 'warn' },
    });
    expect(res.status, res.stderr).toBe(0);
    const [pack] = JSON.parse(res.stdout) as { files: { path: string; size: number }[] }[];
    const files = new Map(pack!.files.map((f) => [f.path, f.size]));
    for (const doc of ['README.md', 'LICENSE']) {
      expect(files.get(doc), doc).toBe(statSync(join(REPO_ROOT, doc)).size);
      expect(existsSync(join(PACKAGE_ROOT, doc)), doc).toBe(false);
    }
    for (const file of ['package.json', 'dist/server.js', 'dist/web/index.html'])
      expect(files.has(file), file).toBe(true);
    for (const path of files.keys())
      expect(path, path).toMatch(/^(README\.md|LICENSE|package\.json|dist\/.+)$/);
    expect(res.stderr).toMatch(/prepack/);
    expect(statSync(join(PACKAGE_ROOT, 'dist', 'server.js')).mtimeMs).toBeGreaterThanOrEqual(start - 1000);
  }, 150_000);
});
