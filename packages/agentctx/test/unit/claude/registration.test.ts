import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { registration, settingsFiles } from '../../../src/claude/registration.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Which registration is active, over every combination of the three settings files holding the
 * plugin on, off or absent, and init's hook entries or not, beside the user's own content.
 * Claude Code reads user, project, then local settings; the last word on a plugin wins.
 */

const fileState = fc.record({
  plugin: fc.constantFrom('on', 'off', 'absent'),
  initHooks: fc.boolean(),
  otherPlugin: fc.boolean(),
  userHook: fc.boolean(),
});

describe('registration', () => {
  const tmp = tempDir('agentctx-registration-');
  afterAll(() => tmp.cleanup());

  it('plugin, init, both or none, as the settings files say', () => {
    let n = 0;
    fc.assert(
      fc.property(fc.tuple(fileState, fileState, fileState), (states) => {
        const root = join(tmp.path, `c${n++}`);
        const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude') };
        const project = join(root, 'repo');
        const files = settingsFiles(env, project);
        states.forEach((s, i) => {
          const settings: Record<string, unknown> = {};
          const enabled: Record<string, boolean> = {};
          if (s.plugin !== 'absent') enabled['agentctx@agentctx'] = s.plugin === 'on';
          if (s.otherPlugin) enabled['agentctx-helper@elsewhere'] = true;
          if (Object.keys(enabled).length) settings.enabledPlugins = enabled;
          const groups = [];
          if (s.userHook) groups.push({ hooks: [{ type: 'command', command: 'echo mine' }] });
          if (s.initHooks) groups.push({ hooks: [{ type: 'command', command: 'agentctx hook stop' }] });
          if (groups.length) settings.hooks = { Stop: groups };
          mkdirSync(join(files[i]!, '..'), { recursive: true });
          writeFileSync(files[i]!, JSON.stringify(settings));
        });
        const last = [...states].reverse().find((s) => s.plugin !== 'absent');
        const plugin = last?.plugin === 'on';
        const init = states.some((s) => s.initHooks);
        const r = registration(env, project);
        expect(r.active).toBe(plugin && init ? 'both' : plugin ? 'plugin' : init ? 'init' : 'none');
        expect(r.plugin.map((p) => p.id)).toEqual(plugin ? ['agentctx@agentctx'] : []);
        expect(r.init.map((f) => f.path)).toEqual(files.filter((_, i) => states[i]!.initHooks));
      }),
      { seed: 2026, numRuns: 120 },
    );
  });

  it('a malformed settings file is reported, not thrown', () => {
    const root = join(tmp.path, 'bad');
    const env = { HOME: root, CLAUDE_CONFIG_DIR: join(root, 'claude') };
    mkdirSync(join(root, 'claude'), { recursive: true });
    writeFileSync(join(root, 'claude', 'settings.json'), '{"enabledPlugins": ');
    const r = registration(env, join(root, 'repo'));
    expect(r.active).toBe('none');
    expect(r.unreadable).toHaveLength(1);
  });
});
