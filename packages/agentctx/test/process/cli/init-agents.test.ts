import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx } from '../../support/cli.js';
import { claudeHooks, file, flatHooks } from '../../support/settings-arbitraries.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * `agentctx init --agent <name>` then `agentctx uninstall --agent <name>` as child processes,
 * over generated files the user already has: every file comes back byte for byte (a file init
 * created is gone again, with the folders it made), and in between the agent's file holds
 * agentctx's hooks and MCP server.
 */

interface Target {
  agent: string;
  /** The files init edits, relative to HOME, and the generator of their prior content. */
  files: { rel: string; before: fc.Arbitrary<string | null> }[];
  /** What must be in the files after init. */
  check: (home: string) => void;
}

const read = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8') : null);
const json = (p: string) => JSON.parse(readFileSync(p, 'utf8')) as Record<string, Record<string, unknown>>;

const TARGETS: Target[] = [
  {
    agent: 'qwen',
    files: [{ rel: '.qwen/settings.json', before: file(claudeHooks, 'mcpServers') }],
    check: (h) => {
      const s = json(join(h, '.qwen/settings.json'));
      expect(JSON.stringify(s.hooks?.UserPromptSubmit)).toContain(
        'agentctx hook user-prompt-submit --agent qwen',
      );
      expect(s.mcpServers?.agentctx).toMatchObject({ trust: true });
    },
  },
  {
    agent: 'gemini',
    files: [{ rel: '.gemini/settings.json', before: file(claudeHooks, 'mcpServers') }],
    check: (h) => {
      const s = json(join(h, '.gemini/settings.json'));
      expect(JSON.stringify(s.hooks?.BeforeAgent)).toContain(
        'agentctx hook user-prompt-submit --agent gemini',
      );
      expect(s.mcpServers?.agentctx).toMatchObject({ trust: true });
    },
  },
  {
    agent: 'opencode',
    files: [{ rel: '.config/opencode/opencode.json', before: file(claudeHooks, 'mcp') }],
    check: (h) => {
      expect(json(join(h, '.config/opencode/opencode.json')).mcp?.agentctx).toMatchObject({ type: 'local' });
      expect(read(join(h, '.config/opencode/plugin/agentctx.js'))).toContain("'--agent', 'opencode'");
    },
  },
  {
    agent: 'cursor',
    files: [
      {
        rel: '.cursor/hooks.json',
        before: file(flatHooks, 'mcpServers').filter((t) => !t?.includes('"version"')),
      },
      { rel: '.cursor/mcp.json', before: file(claudeHooks, 'mcpServers') },
    ],
    check: (h) => {
      const s = json(join(h, '.cursor/hooks.json'));
      expect(JSON.stringify(s.hooks?.sessionStart)).toContain('agentctx hook session-start --agent cursor');
      expect(json(join(h, '.cursor/mcp.json')).mcpServers?.agentctx).toBeDefined();
    },
  },
  {
    agent: 'copilot',
    files: [{ rel: '.copilot/mcp-config.json', before: file(claudeHooks, 'mcpServers') }],
    check: (h) => {
      const s = json(join(h, '.copilot/hooks/agentctx.json'));
      expect(JSON.stringify(s.hooks?.userPromptSubmitted)).toContain(
        'agentctx hook user-prompt-submit --agent copilot',
      );
      expect(JSON.stringify(s.hooks?.agentStop)).toContain('agentctx hook stop --agent copilot');
      expect(JSON.stringify(s.hooks?.postToolUseFailure)).toContain(
        'agentctx hook post-tool-use --agent copilot',
      );
      expect(json(join(h, '.copilot/mcp-config.json')).mcpServers?.agentctx).toBeDefined();
    },
  },
];

/** Every file under `dir` with its content (folders as entries too), for a before/after compare. */
function snapshot(dir: string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.name === '.agentctx' || e.name === 'repo' || e.name === 'tmp') continue;
      if (e.isDirectory()) {
        out[`${p}/`] = null;
        walk(p);
      } else out[p] = readFileSync(p, 'utf8');
    }
  };
  walk(dir);
  return out;
}

let tmp: { path: string; cleanup: () => void };
beforeAll(() => {
  tmp = tempDir('agentctx-init-agents-');
});
afterAll(() => tmp?.cleanup());
let n = 0;

describe('init then uninstall --agent, for each agent beyond Claude Code and Codex', () => {
  for (const t of TARGETS) {
    it(`${t.agent}: every file back byte for byte`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.tuple(...t.files.map((f) => f.before)), async (befores) => {
          const home = join(tmp.path, `h${++n}`);
          mkdirSync(join(home, 'tmp'), { recursive: true });
          const repo = fakeRepo(home, 'repo', null);
          t.files.forEach((f, i) => {
            const text = befores[i];
            if (text === null || text === undefined) return;
            mkdirSync(dirname(join(home, f.rel)), { recursive: true });
            writeFileSync(join(home, f.rel), text);
          });
          const env = isolatedEnv(home, { TMPDIR: join(home, 'tmp') });
          const before = snapshot(home);
          const init = runAgentctx(['init', '--agent', t.agent], { cwd: repo, env });
          expect(init.code, init.stderr).toBe(0);
          t.check(home);
          const again = runAgentctx(['init', '--agent', t.agent, '--json'], { cwd: repo, env });
          expect(again.code, again.stderr).toBe(0);
          const un = runAgentctx(['uninstall', '--agent', t.agent], { cwd: repo, env });
          expect(un.code, un.stderr).toBe(0);
          expect(snapshot(home)).toEqual(before);
        }),
        { numRuns: 6 },
      );
    }, 180_000);
  }
});

describe('one agent’s broken settings file', () => {
  it('init and uninstall --agent all go on with the others, say which failed, change nothing there, exit 1', () => {
    const home = join(tmp.path, 'broken');
    mkdirSync(join(home, 'tmp'), { recursive: true });
    const repo = fakeRepo(home, 'repo', null);
    mkdirSync(join(home, '.qwen'), { recursive: true });
    mkdirSync(join(home, '.gemini'), { recursive: true });
    const broken = '{ "hooks": { oops }\n';
    writeFileSync(join(home, '.gemini', 'settings.json'), broken);
    const env = isolatedEnv(home, { TMPDIR: join(home, 'tmp') });

    const named = runAgentctx(['init', '--agent', 'gemini'], { cwd: repo, env });
    expect(named.code).not.toBe(0);
    expect(named.stderr).toContain('settings.json is not valid JSON');

    const init = runAgentctx(['init', '--agent', 'all', '--no-claude-cli'], { cwd: repo, env });
    expect(init.code).toBe(1);
    expect(init.stdout).toMatch(
      /Gemini CLI: not set up: .*settings\.json is not valid JSON.*\(then agentctx init --agent gemini\)/,
    );
    expect(init.stdout).toContain('Qwen Code: added hooks');
    expect(read(join(home, '.gemini', 'settings.json'))).toBe(broken);

    const un = runAgentctx(['uninstall'], { cwd: repo, env });
    expect(un.code).toBe(1);
    expect(un.stdout).toContain('Gemini CLI: not cleaned up:');
    expect(un.stdout).toContain('Qwen Code: removed hooks');
    expect(existsSync(join(home, '.qwen', 'settings.json'))).toBe(false);
    expect(read(join(home, '.gemini', 'settings.json'))).toBe(broken);
  });
});
