import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../support/cli.js';
import { packInCopy, REPO_ROOT } from '../../support/pack-copy.js';

describe('the published tarball (npm pack --dry-run)', () => {
  it('builds on prepack and carries README, LICENSE, the bin and every bundle, nothing else', () => {
    const res = packInCopy('agentctx');
    expect(res.status, res.stderr).toBe(0);
    const files = res.files;

    for (const doc of ['README.md', 'LICENSE']) {
      expect(files.has(doc), doc).toBe(true);
      expect(files.get(doc), doc).toBe(statSync(join(REPO_ROOT, doc)).size);
      // postpack removed the copies again
      expect(existsSync(join(res.packageDir, doc)), doc).toBe(false);
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
      'dist/mcp.cjs',
      'dist/hook.cjs',
      'dist/sqlite.cjs',
      ...hookNames.map((e) => `dist/hook-${e}.cjs`),
    ];
    for (const file of bundles) expect(files.has(file), file).toBe(true);
    for (const path of files.keys())
      expect(path, path).toMatch(/^(README\.md|LICENSE|package\.json|bin\/[^/]+|dist\/(cli\/)?[^/]+)$/);
    // prepack ran the build: the bundles in the tarball are fresh
    expect(res.stderr).toMatch(/prepack/);
    expect(existsSync(join(res.packageDir, 'dist', 'cli.js'))).toBe(true);
    res.cleanup();
  }, 150_000);
});
