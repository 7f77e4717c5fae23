import {
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { assertNodeVersion } from '../../../src/cli/commands/init.js';
import { CLAUDE_BIN, claudeBinDir } from '../../support/claude.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * `agentctx init` / `agentctx uninstall` as child processes against settings files a user
 * really has: other hooks, permissions, env, unknown keys, odd formatting. Init must touch only
 * our entries; uninstall must give back the original bytes.
 */

const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PostToolUseFailure',
  'PreCompact',
  'Stop',
  'SessionEnd',
  'CwdChanged',
  'SubagentStart',
];

const USER_SETTINGS_2 = `{
  "$schema": "https://json.schemastore.org/claude-code-settings.json",
  "permissions": {
    "allow": ["Bash(npm run test:*)", "Read(~/.zshrc)"],
    "deny": ["Bash(curl:*)"]
  },
  "env": {
    "FOO": "bar",
    "NESTED_QUOTES": "say \\"hi\\" \\u00e9"
  },
  "hooks": {
    "PreToolUse": [
      {
        "matcher": "Bash",
        "hooks": [
          { "type": "command", "command": "/usr/local/bin/audit-bash", "timeout": 5 }
        ]
      }
    ],
    "Stop": [
      {
        "hooks": [{ "type": "command", "command": "notify-send done" }]
      }
    ]
  },
  "model": "opus",
  "unknownFutureKey": { "a": [1, 2.5e3, true, null], "b": {} },
  "cleanupPeriodDays": 30
}
`;

const USER_SETTINGS_TABS = '{\n\t"permissions": {\n\t\t"allow": []\n\t},\n\t"includeCoAuthoredBy": false\n}';
const USER_SETTINGS_COMPACT =
  '{"env":{"A":"1"},"hooks":{"Notification":[{"hooks":[{"type":"command","command":"x"}]}]}}';
const USER_SETTINGS_CRLF =
  '{\r\n    "model": "sonnet",\r\n    "hooks": { },\r\n    "mcpServers": {}\r\n}\r\n';

const CLAUDE_JSON = `{
  "numStartups": 12,
  "projects": {
    "/home/me/code/app": { "allowedTools": [], "hasTrustDialogAccepted": true }
  },
  "mcpServers": {
    "github": { "type": "stdio", "command": "gh-mcp", "args": [], "env": { "TOKEN": "x" } }
  },
  "userID": "abc"
}
`;

let tmp: ReturnType<typeof tempDir>;
let home: string;
let repo: string;
let env: NodeJS.ProcessEnv;
let settingsPath: string;
let claudeJsonPath: string;

beforeEach(() => {
  tmp = tempDir('agentctx-init-');
  home = join(tmp.path, 'home');
  mkdirSync(home);
  repo = fakeRepo(tmp.path, 'app', 'git@github.com:example/app.git');
  env = isolatedEnv(home, { AGENTCTX_NO_CLAUDE_CLI: '1' });
  settingsPath = join(home, '.claude', 'settings.json');
  claudeJsonPath = join(home, '.claude', '.claude.json');
});

afterEach(() => tmp.cleanup());

function write(path: string, text: string): void {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
}

// biome-ignore lint/suspicious/noExplicitAny: the command's JSON report, read field by field
type Report = Record<string, any>;

function init(extra: string[] = [], e = env) {
  return runJson<Report>(['init', ...extra], { cwd: repo, env: e });
}

function uninstall(extra: string[] = [], e = env) {
  return runJson<Report>(['uninstall', ...extra], { cwd: repo, env: e });
}

describe('agentctx init', () => {
  it('creates the home, the store, every hook and the MCP entry in a fresh HOME', () => {
    const res = init();
    expect(res.code, res.stderr).toBe(0);
    expect(existsSync(join(home, '.agentctx', 'agentctx.db'))).toBe(true);
    expect(statSync(join(home, '.agentctx')).mode & 0o777).toBe(0o700);
    expect(res.json.settings.path).toBe(settingsPath);
    expect(res.json.settings.added).toEqual(EVENTS);
    const settings = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(Object.keys(settings.hooks)).toEqual(EVENTS);
    const slugs: Record<string, string> = {
      SessionStart: 'session-start',
      UserPromptSubmit: 'user-prompt-submit',
      PostToolUse: 'post-tool-use',
      PostToolUseFailure: 'post-tool-use',
      PreCompact: 'pre-compact',
      Stop: 'stop',
      SessionEnd: 'session-end',
      CwdChanged: 'cwd-changed',
      SubagentStart: 'subagent-start',
    };
    for (const ev of EVENTS) {
      const [group] = settings.hooks[ev];
      expect(group.hooks).toHaveLength(1);
      const h = group.hooks[0];
      expect(h.type).toBe('command');
      expect(h.command).toBe(`agentctx hook ${slugs[ev]} 2>/dev/null || true`);
      expect(h.timeout).toBeGreaterThan(0);
      expect(h.timeout).toBeLessThanOrEqual(30);
      expect(h.async === true).toBe(ev.startsWith('PostToolUse'));
    }
    const cj = JSON.parse(readFileSync(claudeJsonPath, 'utf8'));
    expect(cj.mcpServers.agentctx).toEqual({ type: 'stdio', command: 'agentctx', args: ['mcp'] });
    expect(res.json.mcp.method).toBe('file');
    expect(res.json.profile.created).toContain('name');
  });

  it('prints what it did in plain text', () => {
    const res = runAgentctx(['init'], { cwd: repo, env });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain(settingsPath);
    expect(res.stdout).toMatch(/hooks: added SessionStart/);
    expect(res.stdout).toMatch(/mcp server: added mcpServers\.agentctx/);
  });

  for (const [label, text] of [
    ['two-space JSON with other hooks, permissions, env and unknown keys', USER_SETTINGS_2],
    ['tab-indented JSON without a trailing newline', USER_SETTINGS_TABS],
    ['single-line compact JSON', USER_SETTINGS_COMPACT],
    ['CRLF, four spaces, empty hooks and mcpServers objects', USER_SETTINGS_CRLF],
  ] as const) {
    it(`round-trips ${label} byte for byte (init twice, then uninstall)`, () => {
      write(settingsPath, text);
      write(claudeJsonPath, CLAUDE_JSON);
      const first = init();
      expect(first.code, first.stderr).toBe(0);
      expect(first.json.settings.changed).toBe(true);
      const afterInit = readFileSync(settingsPath, 'utf8');
      const parsed = JSON.parse(afterInit);
      const original = JSON.parse(text);
      // every key of the user's is still there, in the same order, with the same value
      expect(Object.keys(parsed).filter((k) => k !== 'hooks')).toEqual(
        Object.keys(original).filter((k) => k !== 'hooks'),
      );
      for (const k of Object.keys(original)) if (k !== 'hooks') expect(parsed[k]).toEqual(original[k]);
      for (const [ev, groups] of Object.entries(original.hooks ?? {}))
        expect(parsed.hooks[ev].slice(0, (groups as unknown[]).length)).toEqual(groups);
      if (text.includes('\r\n')) expect(afterInit.replace(/\r\n/g, '')).not.toContain('\n');

      const second = init();
      expect(second.code, second.stderr).toBe(0);
      expect(second.json.changed).toBe(false);
      expect(second.json.settings.changed).toBe(false);
      expect(second.json.mcp.changed).toBe(false);
      expect(readFileSync(settingsPath, 'utf8')).toBe(afterInit);

      const un = uninstall();
      expect(un.code, un.stderr).toBe(0);
      expect(un.json.settings.removed).toEqual(expect.arrayContaining(EVENTS));
      const restored = readFileSync(settingsPath, 'utf8');
      expect(restored).toBe(text);
      expect(readFileSync(claudeJsonPath, 'utf8')).toBe(CLAUDE_JSON);
    });
  }

  it('restores containers that were already there and empty (remembered in ~/.agentctx)', () => {
    const settings = '{\n  "hooks": {\n    "Stop": [ ],\n    "SessionStart": []\n  }\n}\n';
    const cj = '{\n  "mcpServers": {\n  },\n  "numStartups": 1\n}\n';
    write(settingsPath, settings);
    write(claudeJsonPath, cj);
    expect(init().code).toBe(0);
    const filled = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(filled.hooks.Stop[0].hooks[0].command).toBe('agentctx hook stop 2>/dev/null || true');
    expect(Object.keys(filled.hooks).slice(0, 2)).toEqual(['Stop', 'SessionStart']);
    expect(init().json.changed).toBe(false);
    expect(uninstall().code).toBe(0);
    expect(readFileSync(settingsPath, 'utf8')).toBe(settings);
    expect(readFileSync(claudeJsonPath, 'utf8')).toBe(cj);
  });

  it('refuses a malformed settings file with one line, exit non-zero, nothing touched', () => {
    const bad = '{\n  "permissions": { "allow": ["Bash"] },\n  "hooks": {\n}\n  "model": "x"\n';
    write(settingsPath, bad);
    const before = statSync(settingsPath).mtimeMs;
    const res = runAgentctx(['init'], { cwd: repo, env });
    expect(res.code).not.toBe(0);
    const lines = res.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(settingsPath);
    expect(lines[0]).toMatch(/not valid JSON .*line 5/);
    expect(readFileSync(settingsPath, 'utf8')).toBe(bad);
    expect(statSync(settingsPath).mtimeMs).toBe(before);
    expect(existsSync(claudeJsonPath)).toBe(false); // planned first, so nothing else was written
    const json = runJson(['init'], { cwd: repo, env });
    expect(json.code).not.toBe(0);
    expect(json.json.code).toBe('malformed_settings');
  });

  it('refuses a settings file whose "hooks" is not an object, and a malformed ~/.claude.json', () => {
    write(settingsPath, '{ "hooks": [] }\n');
    const res = runAgentctx(['init'], { cwd: repo, env });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/"hooks" in .* is not an object/);
    expect(readFileSync(settingsPath, 'utf8')).toBe('{ "hooks": [] }\n');

    write(settingsPath, '{}\n');
    write(claudeJsonPath, '{"numStartups": 3,');
    const res2 = runAgentctx(['init'], { cwd: repo, env });
    expect(res2.code).not.toBe(0);
    expect(res2.stderr).toContain(claudeJsonPath);
    expect(readFileSync(settingsPath, 'utf8')).toBe('{}\n');
    expect(readFileSync(claudeJsonPath, 'utf8')).toBe('{"numStartups": 3,');
  });

  it('fixes an outdated entry of ours in place and keeps the user hook sharing its group', () => {
    write(
      settingsPath,
      `${JSON.stringify(
        {
          hooks: {
            SessionStart: [
              {
                hooks: [
                  { type: 'command', command: 'echo user-hook' },
                  { type: 'command', command: 'agentctx hook session-start', timeout: 99 },
                ],
              },
            ],
          },
        },
        null,
        2,
      )}\n`,
    );
    const res = init();
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.settings.updated).toEqual(['SessionStart']);
    const s = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(s.hooks.SessionStart).toEqual([
      { hooks: [{ type: 'command', command: 'echo user-hook' }] },
      {
        hooks: [{ type: 'command', command: 'agentctx hook session-start 2>/dev/null || true', timeout: 10 }],
      },
    ]);
    const un = uninstall();
    expect(un.code).toBe(0);
    const after = JSON.parse(readFileSync(settingsPath, 'utf8'));
    expect(after.hooks).toEqual({
      SessionStart: [{ hooks: [{ type: 'command', command: 'echo user-hook' }] }],
    });
  });

  it('writes through a symlinked settings file and keeps its mode', () => {
    const real = join(tmp.path, 'dotfiles', 'claude-settings.json');
    write(real, '{\n  "model": "opus"\n}\n');
    mkdirSync(join(home, '.claude'), { recursive: true });
    symlinkSync(real, settingsPath);
    const mode = statSync(real).mode & 0o777;
    expect(init().code).toBe(0);
    expect(lstatSync(settingsPath).isSymbolicLink()).toBe(true);
    expect(JSON.parse(readFileSync(real, 'utf8')).hooks.Stop).toBeDefined();
    expect(statSync(real).mode & 0o777).toBe(mode);
    expect(uninstall().code).toBe(0);
    expect(readFileSync(real, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
  });

  it('--project writes the repository settings and leaves the user settings alone', () => {
    const res = init(['--project']);
    expect(res.code, res.stderr).toBe(0);
    const projectSettings = join(repo, '.claude', 'settings.json');
    expect(res.json.settings.path).toBe(projectSettings);
    expect(Object.keys(JSON.parse(readFileSync(projectSettings, 'utf8')).hooks)).toEqual(EVENTS);
    expect(existsSync(settingsPath)).toBe(false);
    // the MCP server is registered at user scope either way
    expect(JSON.parse(readFileSync(claudeJsonPath, 'utf8')).mcpServers.agentctx.command).toBe('agentctx');
    const un = uninstall(['--project']);
    expect(un.code).toBe(0);
    expect(readFileSync(projectSettings, 'utf8')).toBe('{}\n');
    expect(JSON.parse(readFileSync(claudeJsonPath, 'utf8')).mcpServers).toBeUndefined();
  });

  it('honours CLAUDE_CONFIG_DIR and, without it, uses ~/.claude and ~/.claude.json', () => {
    const custom = join(tmp.path, 'elsewhere');
    const e1 = { ...env, CLAUDE_CONFIG_DIR: custom };
    expect(init([], e1).code).toBe(0);
    expect(existsSync(join(custom, 'settings.json'))).toBe(true);
    expect(existsSync(join(custom, '.claude.json'))).toBe(true);
    const e2 = { ...env };
    delete e2.CLAUDE_CONFIG_DIR;
    expect(init([], e2).code).toBe(0);
    expect(existsSync(join(home, '.claude', 'settings.json'))).toBe(true);
    expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8')).mcpServers.agentctx).toBeDefined();
  });

  it.skipIf(!CLAUDE_BIN)(
    'registers the MCP server through `claude mcp add` when claude is on PATH',
    () => {
      const e: NodeJS.ProcessEnv = { ...env, PATH: `${claudeBinDir(tmp.path)}:${env.PATH}` };
      delete e.AGENTCTX_NO_CLAUDE_CLI;
      const res = init([], e);
      expect(res.code, res.stderr).toBe(0);
      expect(res.json.mcp.method).toBe('claude-cli');
      const entry = JSON.parse(readFileSync(claudeJsonPath, 'utf8')).mcpServers.agentctx;
      expect(entry).toMatchObject({ type: 'stdio', command: 'agentctx', args: ['mcp'] });
      const again = init([], e);
      expect(again.json.mcp.changed).toBe(false);
      // --no-claude-cli forces the file edit even with claude on PATH
      expect(uninstall([], e).code).toBe(0);
      const direct = init(['--no-claude-cli'], e);
      expect(direct.json.mcp.method).toBe('file');
    },
    60_000,
  );

  it('rejects Node.js older than 20 with a clear message', () => {
    expect(() => assertNodeVersion('v18.19.1')).toThrow(/needs Node\.js 20 or newer; this is v18\.19\.1/);
    expect(() => assertNodeVersion('v16.0.0')).toThrow(/Node\.js 20/);
    expect(() => assertNodeVersion('v20.0.0')).not.toThrow();
    expect(() => assertNodeVersion('22.3.0')).not.toThrow();
  });
});

describe('agentctx uninstall --purge', () => {
  it('refuses without --yes when stdin is not a terminal, and changes nothing', () => {
    expect(init().code).toBe(0);
    const settingsBefore = readFileSync(settingsPath, 'utf8');
    const res = runAgentctx(['uninstall', '--purge'], { cwd: repo, env });
    expect(res.code).not.toBe(0);
    expect(res.stderr.trim().split('\n')).toHaveLength(1);
    expect(res.stderr).toMatch(/--yes/);
    expect(existsSync(join(home, '.agentctx', 'agentctx.db'))).toBe(true);
    expect(readFileSync(settingsPath, 'utf8')).toBe(settingsBefore);
  });

  it('with --yes removes the hooks, the MCP entry and ~/.agentctx', () => {
    write(settingsPath, USER_SETTINGS_2);
    expect(init().code).toBe(0);
    const res = uninstall(['--purge', '--yes']);
    expect(res.code, res.stderr).toBe(0);
    expect(res.json.purged).toBe(join(home, '.agentctx'));
    expect(existsSync(join(home, '.agentctx'))).toBe(false);
    expect(readFileSync(settingsPath, 'utf8')).toBe(USER_SETTINGS_2);
  });

  it('refuses to purge when AGENTCTX_HOME is the home folder itself', () => {
    const e = { ...env, AGENTCTX_HOME: home };
    const res = runAgentctx(['uninstall', '--purge', '--yes'], { cwd: repo, env: e });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/refusing to purge/);
    expect(existsSync(home)).toBe(true);
  });
});
