import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packInCopy, REPO_ROOT } from '../../agentctx/test/support/pack-copy.js';

describe('the published dashboard tarball (npm pack --dry-run)', () => {
  it('builds on prepack and carries README, LICENSE, the server and the page', () => {
    const res = packInCopy('agentctx-ui');
    expect(res.status, res.stderr).toBe(0);
    const files = res.files;
    for (const doc of ['README.md', 'LICENSE']) {
      expect(files.get(doc), doc).toBe(statSync(join(REPO_ROOT, doc)).size);
      expect(existsSync(join(res.packageDir, doc)), doc).toBe(false);
    }
    for (const file of ['package.json', 'dist/server.js', 'dist/web/index.html'])
      expect(files.has(file), file).toBe(true);
    for (const path of files.keys())
      expect(path, path).toMatch(/^(README\.md|LICENSE|package\.json|dist\/.+)$/);
    expect(res.stderr).toMatch(/prepack/);
    expect(existsSync(join(res.packageDir, 'dist', 'server.js'))).toBe(true);
    res.cleanup();
  }, 150_000);
});
