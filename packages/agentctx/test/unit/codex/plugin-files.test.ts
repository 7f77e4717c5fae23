import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { trustTable } from '../../../src/codex/config-file.js';
import { CODEX_HOOK_SPECS } from '../../../src/codex/hooks-file.js';
import {
  CODEX_PLUGIN_HOOKS,
  CODEX_PLUGIN_MCP,
  codexPluginHooks,
  generatedCodexPluginFiles,
} from '../../../src/codex/plugin-files.js';
import { enabledCodexPlugin } from '../../../src/codex/plugin-install.js';
import { PACKAGE_ROOT } from '../../support/cli.js';

const REPO = join(PACKAGE_ROOT, '..', '..');
const PLUGIN = join(REPO, 'plugin');
const readJson = (p: string) => JSON.parse(readFileSync(p, 'utf8'));

type Group = { matcher?: string; hooks: { command: string; timeout: number }[] };

describe('the Codex plugin files', () => {
  it('the committed generated files are what the Codex hook table generates (else: npm run gen:plugin)', () => {
    for (const [rel, text] of Object.entries(generatedCodexPluginFiles()))
      expect(readFileSync(join(PLUGIN, rel), 'utf8'), `plugin/${rel}`).toBe(text);
  });

  it("the manifest points Codex at its own files, and the repository's marketplace at the plugin", () => {
    const manifest = readJson(join(PLUGIN, '.codex-plugin', 'plugin.json'));
    expect(manifest.name).toBe('agentctx');
    expect(manifest.hooks).toBe(`./${CODEX_PLUGIN_HOOKS}`);
    expect(manifest.mcpServers).toBe(`./${CODEX_PLUGIN_MCP}`);
    // the same version as the Claude Code plugin: one folder, one release
    expect(manifest.version).toBe(readJson(join(PLUGIN, '.claude-plugin', 'plugin.json')).version);
    const market = readJson(join(REPO, '.agents', 'plugins', 'marketplace.json'));
    expect(market.name).toBe('agentctx');
    expect(market.plugins).toEqual([
      expect.objectContaining({ name: 'agentctx', source: { source: 'local', path: './plugin' } }),
    ]);
  });

  it('every hook init registers in Codex is there, naming the Codex adapter, and nothing else', () => {
    const file = readJson(join(PLUGIN, CODEX_PLUGIN_HOOKS));
    // Codex skips a hooks file with another top-level key
    expect(Object.keys(file).sort()).toEqual(['description', 'hooks']);
    const hooks = file.hooks as Record<string, Group[]>;
    for (const spec of CODEX_HOOK_SPECS) {
      const g = hooks[spec.event]?.[0];
      expect(g?.hooks[0]?.command).toBe(
        `"\${PLUGIN_ROOT}/bin/agentctx-plugin-run" hook ${spec.slug} --agent codex`,
      );
      expect(g?.hooks[0]?.timeout).toBe(spec.timeout);
      expect(g?.matcher).toBe(spec.matcher);
    }
    expect(Object.keys(hooks).sort()).toEqual(CODEX_HOOK_SPECS.map((s) => s.event).sort());
    expect(codexPluginHooks([])).toEqual({ description: expect.any(String), hooks: {} });
  });

  it('the MCP server is the one init registers, with agentctx variables passed through', () => {
    const server = readJson(join(PLUGIN, CODEX_PLUGIN_MCP)).mcpServers.agentctx;
    expect(server).toEqual({
      command: 'agentctx',
      args: ['mcp'],
      env: { AGENTCTX_AGENT: 'codex' },
      env_vars: ['AGENTCTX_HOME', 'AGENTCTX_DISABLE', 'AGENTCTX_TMPDIR'],
    });
  });
});

describe("a plugin hook's trust record", () => {
  const hex = fc.stringMatching(/^[0-9a-f]{64}$/);
  it('a two-part hash is recorded as trusted_hash and trusted_content_hash, a plain one as trusted_hash', () => {
    fc.assert(
      fc.property(hex, hex, fc.boolean(), fc.constantFrom('\n', '\r\n'), (a, b, plugin, eol) => {
        const hash = plugin ? `sha256:${a}/sha256:${b}` : `sha256:${a}`;
        const lines = trustTable('agentctx@agentctx:hooks/codex-hooks.json:stop:0:0', hash, eol).split(eol);
        expect(lines[0]).toBe('[hooks.state."agentctx@agentctx:hooks/codex-hooks.json:stop:0:0"]');
        expect(lines[1]).toBe(`trusted_hash = "sha256:${a}"`);
        if (plugin) expect(lines[2]).toBe(`trusted_content_hash = "sha256:${b}"`);
        expect(lines.at(-1)).toBe('');
        expect(lines).toHaveLength(plugin ? 4 : 3);
      }),
      { seed: 150, numRuns: 100 },
    );
  });
});

describe('is the agentctx plugin enabled in config.toml', () => {
  it('only an agentctx@… plugin table with enabled = true counts', () => {
    expect(enabledCodexPlugin('[plugins."agentctx@agentctx"]\nenabled = true\n')).toBe('agentctx@agentctx');
    expect(enabledCodexPlugin('[plugins."agentctx@mine"]\r\nenabled = true # on\r\n')).toBe('agentctx@mine');
    expect(enabledCodexPlugin('[plugins."agentctx@agentctx"]\nenabled = false\n')).toBeNull();
    expect(enabledCodexPlugin('[plugins."other@agentctx"]\nenabled = true\n')).toBeNull();
    expect(enabledCodexPlugin('[plugins."agentctx@a"]\n[x]\nenabled = true\n')).toBeNull();
    expect(enabledCodexPlugin('model = "gpt-5"\nenabled = true\n')).toBeNull();
    expect(enabledCodexPlugin('')).toBeNull();
  });
});
