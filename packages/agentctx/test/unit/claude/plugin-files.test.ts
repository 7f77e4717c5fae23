import { accessSync, constants, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generatedPluginFiles, launcherCommand, pluginHooks } from '../../../src/claude/plugin-files.js';
import { HOOK_SPECS, type HookSpec } from '../../../src/claude/settings-hook-entries.js';
import { PACKAGE_ROOT } from '../../support/cli.js';

const REPO = join(PACKAGE_ROOT, '..', '..');
const PLUGIN = join(REPO, 'plugin');

type Group = { matcher?: string; hooks: { command: string; timeout: number; async?: boolean }[] };

describe('the Claude Code plugin files', () => {
  it('the committed generated files are what the hook table generates (else: npm run gen:plugin)', () => {
    for (const [rel, text] of Object.entries(generatedPluginFiles())) {
      expect(readFileSync(join(PLUGIN, rel), 'utf8'), `plugin/${rel}`).toBe(text);
    }
  });

  it('every entry of the table `agentctx init` writes is in hooks.json, with its timeout and matcher', () => {
    const hooks = JSON.parse(readFileSync(join(PLUGIN, 'hooks', 'hooks.json'), 'utf8')).hooks as Record<
      string,
      Group[]
    >;
    for (const spec of HOOK_SPECS) {
      const groups = hooks[spec.event] ?? [];
      const hit = groups.find((g) => g.hooks.some((h) => h.command === launcherCommand('hook', spec.slug)));
      expect(hit, spec.event).toBeDefined();
      expect(hit?.matcher).toBe(spec.matcher);
      expect(hit?.hooks[0]?.timeout).toBe(spec.timeout);
      expect(hit?.hooks[0]?.async).toBe(spec.async);
    }
    expect(Object.keys(hooks).sort()).toEqual([...new Set(HOOK_SPECS.map((s) => s.event))].sort());
  });

  it('a table with any events generates one hook per entry, none lost, none invented', () => {
    const spec = fc.record({
      event: fc.constantFrom('SessionStart', 'SubagentStart', 'PostCompact', 'Stop', 'PostToolUse'),
      slug: fc.stringMatching(/^[a-z]{1,8}(-[a-z]{1,8})?$/),
      timeout: fc.integer({ min: 1, max: 600 }),
      async: fc.option(fc.constant(true), { nil: undefined }),
      matcher: fc.option(fc.constantFrom('*', 'startup|resume', 'Bash'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(spec, { maxLength: 12 }), (specs: HookSpec[]) => {
        const hooks = pluginHooks(specs).hooks as Record<string, Group[]>;
        const flat = Object.entries(hooks).flatMap(([event, groups]) =>
          groups.flatMap((g) => g.hooks.map((h) => ({ event, command: h.command, matcher: g.matcher }))),
        );
        expect(flat).toHaveLength(specs.length);
        for (const s of specs)
          expect(flat).toContainEqual({
            event: s.event,
            command: launcherCommand('hook', s.slug),
            matcher: s.matcher,
          });
      }),
      { seed: 1717, numRuns: 200 },
    );
  });

  it('the marketplace lists the plugin folder, whose manifest carries the package version', () => {
    const market = JSON.parse(readFileSync(join(REPO, '.claude-plugin', 'marketplace.json'), 'utf8'));
    const entry = market.plugins.find((p: { name: string }) => p.name === 'agentctx');
    expect(entry.source).toBe('./plugin');
    const manifest = JSON.parse(readFileSync(join(PLUGIN, '.claude-plugin', 'plugin.json'), 'utf8'));
    const pkg = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
    expect(manifest.name).toBe('agentctx');
    expect(manifest.version).toBe(pkg.version);
    expect(() => accessSync(join(PLUGIN, 'bin', 'agentctx-plugin-run'), constants.X_OK)).not.toThrow();
  });
});
