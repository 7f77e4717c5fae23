import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../agentctx/test/support/cli.js';
import { fakeRepo, tempDir } from '../../agentctx/test/support/tmp.js';
import { coreMismatch, VERSION } from '../src/server/core.js';
import { startDashboard } from '../src/server/start.js';

const ROOT = join(import.meta.dirname, '..');

/**
 * The dashboard runs on the installed CLI's core (its declared export), never on a copy: a
 * dashboard of another version is refused before the store is opened, so it can neither migrate
 * the store past what the CLI's hooks read nor write with another version's rules.
 */
describe('one core for the CLI and the dashboard', () => {
  it('refuses an agentctx of another version before opening the store', async () => {
    const t = tempDir();
    try {
      const env = isolatedEnv(t.path);
      const repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
      await expect(
        startDashboard({ cwd: repo, env, port: 0, uiVersion: `${VERSION}-next` }),
      ).rejects.toMatchObject({ code: 'version_mismatch' });
      expect(existsSync(join(env.AGENTCTX_HOME!, 'agentctx.db'))).toBe(false);
    } finally {
      t.cleanup();
    }
  });

  it('names both versions and the install line, only when they differ', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^\d{1,2}\.\d{1,2}\.\d{1,2}$/),
        fc.stringMatching(/^\d{1,2}\.\d{1,2}\.\d{1,2}$/),
        (core, ui) => {
          const m = coreMismatch(core, ui);
          if (core === ui) expect(m).toBeNull();
          else {
            expect(m).toContain(`this agentctx is ${core}`);
            expect(m).toContain(`npm install -g @agentctxhq/agentctx@${ui} @agentctxhq/agentctx-ui@${ui}`);
          }
        },
      ),
    );
  });

  it('bundles none of the core: the server imports the declared export, the sources no sibling path', () => {
    const server = readFileSync(join(ROOT, 'dist', 'server.js'), 'utf8');
    expect(server).toContain('@agentctxhq/agentctx/ui-core');
    // the migrations and the SQLite driver live in the CLI package only
    expect(server).not.toMatch(/CREATE TABLE IF NOT EXISTS records|node:sqlite|user_version/);
    const files = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)],
      );
    for (const f of files(join(ROOT, 'src')))
      expect(readFileSync(f, 'utf8'), f).not.toMatch(/agentctx\/src\//);
  });
});
