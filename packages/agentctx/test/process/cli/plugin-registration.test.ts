import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

/**
 * `agentctx init`, `status` and `doctor` beside the Claude Code plugin: with the plugin enabled,
 * init writes nothing; status and doctor say which registration is active, and doctor warns when
 * both are there.
 */

interface Check {
  id: string;
  status: string;
  summary: string;
}

describe('init, status and doctor with the plugin enabled', () => {
  const t = tempDir('agentctx-plugin-reg-');
  let env: NodeJS.ProcessEnv;
  let project: string;
  const settings = () => join(t.path, '.claude', 'settings.json');
  const claudeJson = () => join(t.path, '.claude', '.claude.json');
  const hooksCheck = () => {
    const r = runAgentctx(['doctor', '--json'], { cwd: project, env, timeoutMs: 60_000 });
    return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'hooks')!;
  };
  const active = () =>
    runJson<{ claude: { active: string } }>(['status', '--verbose'], { cwd: project, env }).json.claude
      .active;

  beforeAll(() => {
    const bin = join(t.path, 'bin');
    mkdirSync(bin);
    symlinkSync(BIN, join(bin, 'agentctx'));
    project = join(t.path, 'project');
    mkdirSync(join(project, '.git'), { recursive: true });
    writeFileSync(join(project, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    env = isolatedEnv(t.path, { PATH: `${bin}:${process.env.PATH}`, AGENTCTX_NO_CLAUDE_CLI: '1' });
    mkdirSync(join(t.path, '.claude'), { recursive: true });
  });
  afterAll(() => t.cleanup());

  it('plugin enabled: init writes nothing, status and doctor name the plugin', () => {
    const text = `{\n  "enabledPlugins": { "agentctx@agentctx": true },\n  "theme": "dark"\n}\n`;
    writeFileSync(settings(), text);
    const init = runJson<{ plugin: string[]; changed: boolean }>(['init'], { cwd: project, env });
    expect(init.code, init.stderr).toBe(0);
    expect(init.json.plugin).toEqual(['agentctx@agentctx']);
    expect(readFileSync(settings(), 'utf8')).toBe(text);
    expect(existsSync(claudeJson())).toBe(false);
    expect(runAgentctx(['init'], { cwd: project, env }).stdout).toMatch(
      /registered by the Claude Code plugin/,
    );
    expect(active()).toBe('plugin');
    expect(runAgentctx(['status', '--verbose'], { cwd: project, env }).stdout).toMatch(
      /claude\s+Claude Code plugin agentctx@agentctx/,
    );
    const hooks = hooksCheck();
    expect(hooks.status).toBe('ok');
    expect(hooks.summary).toMatch(/plugin agentctx@agentctx/);
  });

  it('plugin disabled: init writes its hooks; enabled again: both, and doctor warns', () => {
    writeFileSync(settings(), `{ "enabledPlugins": { "agentctx@agentctx": false } }\n`);
    expect(runAgentctx(['init'], { cwd: project, env }).code).toBe(0);
    expect(readFileSync(settings(), 'utf8')).toContain('agentctx hook session-start');
    expect(active()).toBe('init');
    const withHooks = JSON.parse(readFileSync(settings(), 'utf8'));
    withHooks.enabledPlugins['agentctx@agentctx'] = true;
    writeFileSync(settings(), JSON.stringify(withHooks, null, 2));
    expect(active()).toBe('both');
    const hooks = hooksCheck();
    expect(hooks.status).toBe('warn');
    expect(hooks.summary).toMatch(/registered twice/);
    // uninstall removes init's entries; the plugin remains the one registration
    const un = runAgentctx(['uninstall'], { cwd: project, env });
    expect(un.code).toBe(0);
    expect(un.stdout).toMatch(
      /plugin: agentctx@agentctx is still enabled .*claude plugin uninstall agentctx@agentctx/,
    );
    expect(active()).toBe('plugin');
  });
});
