import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLUGIN_LAUNCHER } from '../../../src/claude/plugin-files.js';
import { HOOK_SPECS } from '../../../src/claude/settings-hook-entries.js';
import { agentctxBinDir } from '../../support/claude.js';
import { PACKAGE_ROOT, runAgentctx } from '../../support/cli.js';
import { hostileText } from '../../support/hostile-text.js';
import { type HookWorld, hookWorld, promptPayload } from './helpers.js';

/**
 * The plugin's launcher (plugin/bin/agentctx-plugin-run), run as Claude Code runs it: with the
 * agentctx CLI on PATH it is that CLI; without, every hook exits 0 with nothing or one valid
 * hook JSON (SessionStart: one instruction), and the MCP server refuses with the instruction.
 * A plugin hook stands aside where `agentctx init` registered the same hook.
 */

const LAUNCHER = join(PACKAGE_ROOT, '..', '..', 'plugin', PLUGIN_LAUNCHER);
const SLUGS = [...new Set(HOOK_SPECS.map((s) => s.slug)), 'subagent-start', 'no-such-event'];

function launch(args: string[], env: NodeJS.ProcessEnv, cwd: string, input = '') {
  const r = spawnSync(LAUNCHER, args, { env, cwd, input, encoding: 'utf8', timeout: 20_000 });
  return { code: r.status ?? -1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

describe('the plugin launcher', () => {
  let world: HookWorld;
  let withCli: NodeJS.ProcessEnv;
  let without: NodeJS.ProcessEnv;

  beforeAll(() => {
    world = hookWorld();
    const path = [agentctxBinDir(world.home), dirname(process.execPath), '/usr/bin', '/bin'].join(':');
    withCli = { ...world.env, PATH: path, CLAUDE_PROJECT_DIR: world.repo };
    without = { ...world.env, PATH: '/usr/bin:/bin', CLAUDE_PROJECT_DIR: world.repo };
    world.add({
      type: 'convention',
      title: 'Name database migration files with a UTC timestamp prefix',
      body: 'Every migration file is named <UTC timestamp>_<slug>.sql. LAUNCH-MARK-1',
    });
    world.closeDb();
  });
  afterAll(() => world?.cleanup());

  it('without agentctx: every hook exits 0, prints nothing or one instruction, whatever stdin holds', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SLUGS), hostileText, (slug, input) => {
        const r = launch(['hook', slug], without, world.repo, input);
        expect(r.code).toBe(0);
        if (slug !== 'session-start') {
          expect(r.stdout).toBe('');
          return;
        }
        const out = JSON.parse(r.stdout) as { systemMessage: string };
        expect(Object.keys(out)).toEqual(['systemMessage']);
        expect(out.systemMessage).toContain('npm install -g @agentctxhq/agentctx');
      }),
      { seed: 99, numRuns: 40 },
    );
    const mcp = launch(['mcp'], without, world.repo);
    expect(mcp.code).not.toBe(0);
    expect(mcp.stderr).toContain('npm install -g @agentctxhq/agentctx');
  });

  it('with agentctx on PATH it runs that CLI; a hook init registered too runs once, from the settings', () => {
    const viaPlugin = launch(
      ['hook', 'user-prompt-submit'],
      withCli,
      world.repo,
      JSON.stringify(promptPayload(world, 'plug-1', 'How do I name the database migration file?')),
    );
    expect(viaPlugin.code).toBe(0);
    expect(viaPlugin.stdout).toContain('LAUNCH-MARK-1');
    // agentctx init writes the same hooks into the user settings: the plugin's stand aside …
    const init = runAgentctx(['init', '--no-claude-cli'], { cwd: world.repo, env: withCli });
    expect(init.code, init.stderr).toBe(0);
    const payload = JSON.stringify(
      promptPayload(world, 'plug-2', 'How do I name the database migration file?'),
    );
    const aside = launch(['hook', 'user-prompt-submit'], withCli, world.repo, payload);
    expect(aside.code).toBe(0);
    expect(aside.stdout).toBe('');
    // … while the settings' own hook (the same CLI, not via the plugin) injects
    const direct = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: world.repo,
      env: withCli,
      input: payload,
    });
    expect(direct.stdout).toContain('LAUNCH-MARK-1');
    runAgentctx(['uninstall'], { cwd: world.repo, env: withCli });
    const back = launch(
      ['hook', 'user-prompt-submit'],
      withCli,
      world.repo,
      JSON.stringify(promptPayload(world, 'plug-3', 'How do I name the database migration file?')),
    );
    expect(back.stdout).toContain('LAUNCH-MARK-1');
  });

  it('a Codex plugin hook stands aside only where init registered it in Codex, not in Claude Code', () => {
    const env = { ...withCli, CODEX_HOME: join(world.home, '.codex-launcher') };
    const prompt = (id: string) =>
      JSON.stringify(promptPayload(world, id, 'How do I name the database migration file?'));
    const codexHook = (id: string) =>
      launch(['hook', 'user-prompt-submit', '--agent', 'codex'], env, world.repo, prompt(id));
    // Claude Code's settings hold init's hooks: the Codex plugin's hooks still run
    expect(runAgentctx(['init', '--no-claude-cli'], { cwd: world.repo, env }).code).toBe(0);
    const before = codexHook('cx-1');
    expect(before.code).toBe(0);
    expect(before.stdout).toContain('LAUNCH-MARK-1');
    // init --agent codex writes the same hook into $CODEX_HOME/hooks.json: the plugin's stands aside
    const init = runAgentctx(['init', '--agent', 'codex', '--no-claude-cli'], { cwd: world.repo, env });
    expect(init.code, init.stderr).toBe(0);
    const aside = codexHook('cx-2');
    expect(aside.code).toBe(0);
    expect(aside.stdout).toBe('');
    runAgentctx(['uninstall'], { cwd: world.repo, env });
    expect(codexHook('cx-3').stdout).toContain('LAUNCH-MARK-1');
  });
});
