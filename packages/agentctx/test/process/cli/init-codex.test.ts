import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHooks, openAppServer } from '../../../src/codex/app-server.js';
import { runAgentctx } from '../../support/cli.js';
import { CODEX_BIN, codexEnv } from '../../support/codex.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * `agentctx init --agent codex` and `agentctx uninstall --agent codex` as child processes, with
 * the real Codex app server doing the trust: whatever config.toml and hooks.json the user had,
 * init then uninstall gives back the same bytes (or no file where there was none), and in
 * between Codex itself reports every agentctx hook trusted.
 */

const RUNS = Number(process.env.AGENTCTX_CODEX_ROUNDTRIP_RUNS ?? 8);
const EVENTS = [
  'SessionStart',
  'UserPromptSubmit',
  'PostToolUse',
  'PreCompact',
  'Stop',
  'SessionEnd',
  'SubagentStart',
];

/** Pieces of a config.toml a Codex user has, in any order. */
const tomlPiece = fc.constantFrom(
  '# my settings',
  'model = "o3"',
  'approval_policy = "on-request"',
  "notes = '''\n[not.a.table]\n'''",
  'notes2 = """\n[also.not]\n"""',
  '[projects."/home/me/work"]\ntrust_level = "trusted"',
  '[mcp_servers.other]\ncommand = "other-mcp"\nargs = ["serve"]',
  '[hooks.state."/elsewhere/hooks.json:stop:0:0"]\ntrusted_hash = "sha256:00"',
  '[hooks.state]',
  'hooks.state."/x/hooks.json:session_start:0:0".enabled = false',
  '[tui]\nnotifications = true # keep this comment',
  '',
);
const tomlFile = fc.option(
  fc.record({
    pieces: fc.uniqueArray(tomlPiece, { maxLength: 6 }),
    crlf: fc.boolean(),
    trailing: fc.constantFrom('', '\n', '\n\n'),
  }),
  { nil: null },
);

/** Dotted keys must come before any table: put them first, as a user's file would. */
function renderToml(t: { pieces: string[]; crlf: boolean; trailing: string }): string {
  const dotted = t.pieces.filter((p) => p.startsWith('hooks.state.'));
  // a table dotted keys defined cannot be opened again with its own [header] (TOML 1.0)
  const rest = t.pieces.filter(
    (p) => !p.startsWith('hooks.state.') && !(dotted.length && p === '[hooks.state]'),
  );
  const plain = rest.filter((p) => !p.startsWith('['));
  const tables = rest.filter((p) => p.startsWith('['));
  const text = [...dotted, ...plain, ...tables].join('\n') + t.trailing;
  return t.crlf ? text.replace(/\n/g, '\r\n') : text;
}

const hooksFile = fc.option(
  fc.constantFrom(
    '{}',
    '{"hooks":{}}\n',
    '{\n  "hooks": {\n    "Stop": []\n  }\n}\n',
    '{\n    "hooks": {\n        "Stop": [\n            {\n                "hooks": [{"type": "command", "command": "echo bye", "timeout": 5}]\n            }\n        ]\n    }\n}',
    '{"hooks":{"PostToolUse":[{"matcher":"Bash","hooks":[{"type":"command","command":"audit"}]}]}}\r\n',
  ),
  { nil: null },
);

let tmp: { path: string; cleanup: () => void };
beforeAll(() => {
  tmp = tempDir('agentctx-init-codex-');
});
afterAll(() => tmp?.cleanup());

let n = 0;
function world() {
  const home = join(tmp.path, `h${++n}`);
  mkdirSync(home, { recursive: true });
  const repo = fakeRepo(home, 'repo', 'git@github.com:acme/codex-init.git');
  const env = codexEnv(home);
  return { home, repo, env, codexHome: env.CODEX_HOME as string };
}

function read(p: string): string | null {
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

describe.skipIf(!CODEX_BIN)('init --agent codex with the real Codex app server', () => {
  it('init then uninstall gives back every file byte for byte, and Codex trusts the hooks in between', async () => {
    await fc.assert(
      fc.asyncProperty(tomlFile, hooksFile, async (toml, hooks) => {
        const w = world();
        const configPath = join(w.codexHome, 'config.toml');
        const hooksPath = join(w.codexHome, 'hooks.json');
        const configBefore = toml ? renderToml(toml) : null;
        if (configBefore !== null) writeFileSync(configPath, configBefore);
        if (hooks !== null) writeFileSync(hooksPath, hooks);

        const init = runAgentctx(['init', '--agent', 'codex'], {
          cwd: w.repo,
          env: w.env,
          timeoutMs: 60_000,
        });
        expect(init.code, `${init.stdout}\n${init.stderr}`).toBe(0);
        expect(init.stdout).toContain(
          `codex hook trust: trusted ${EVENTS.length} hook(s) through codex app-server`,
        );
        expect(init.stdout).not.toContain('Codex rewrote the file');
        // the user's own text is still there, byte for byte, before what init appended
        if (configBefore) expect(read(configPath)?.startsWith(configBefore)).toBe(true);

        // Codex itself, asked afresh: every agentctx hook is trusted, the user's own are untouched
        const server = await openAppServer(CODEX_BIN as string, { env: w.env, cwd: w.repo });
        try {
          const listed = await listHooks(server, w.repo);
          const ours = listed.filter((h) => h.command?.startsWith('agentctx hook '));
          expect(ours.map((h) => h.eventName).length).toBe(EVENTS.length);
          expect(ours.every((h) => h.trustStatus === 'trusted')).toBe(true);
          for (const h of ours) expect(h.command).toMatch(/ --agent codex 2>\/dev\/null \|\| true$/);
          const theirs = listed.filter((h) => !h.command?.startsWith('agentctx hook '));
          expect(theirs.every((h) => h.trustStatus !== 'trusted')).toBe(true);
        } finally {
          server.close();
        }

        const un = runAgentctx(['uninstall', '--agent', 'codex'], { cwd: w.repo, env: w.env });
        expect(un.code, un.stderr).toBe(0);
        expect(read(configPath)).toBe(configBefore);
        expect(read(hooksPath)).toBe(hooks);
        rmSync(w.home, { recursive: true, force: true });
      }),
      { numRuns: RUNS },
    );
  }, 600_000);

  it('a second init changes nothing and says the hooks are already trusted', () => {
    const w = world();
    expect(
      runAgentctx(['init', '--agent', 'codex'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).code,
    ).toBe(0);
    const config = read(join(w.codexHome, 'config.toml'));
    const hooks = read(join(w.codexHome, 'hooks.json'));
    const again = runAgentctx(['init', '--agent', 'codex'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
    expect(again.stdout).toContain('codex hook trust: every agentctx hook is already trusted');
    expect(again.stdout).toContain('codex hooks: already set up');
    expect(read(join(w.codexHome, 'config.toml'))).toBe(config);
    expect(read(join(w.codexHome, 'hooks.json'))).toBe(hooks);
  }, 120_000);

  it('without codex on PATH the hooks are registered and init says they are not trusted, and how to trust them', () => {
    const w = world();
    const env = {
      ...w.env,
      PATH: (w.env.PATH ?? '')
        .split(':')
        .filter((d) => !d.endsWith('codex-bin'))
        .join(':'),
    };
    const r = runAgentctx(['init', '--agent', 'codex'], { cwd: w.repo, env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('codex hook trust: not done (codex is not on PATH)');
    expect(r.stdout).toContain('agentctx init --agent codex');
    expect(read(join(w.codexHome, 'hooks.json'))).toContain('agentctx hook stop --agent codex');
  }, 60_000);

  it('plain init keeps doing Claude Code and names Codex when it finds it', () => {
    const w = world();
    const r = runAgentctx(['init'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(
      'also found: Codex (agentctx init --agent codex registers agentctx there too)',
    );
    expect(existsSync(join(w.codexHome, 'hooks.json'))).toBe(false);
    expect(read(join(w.home, '.claude', 'settings.json'))).toContain('agentctx hook session-start');
  }, 60_000);

  it('doctor finds registered-but-untrusted hooks (a hand edit untrusts them) and init trusts them again', () => {
    const w = world();
    expect(
      runAgentctx(['init', '--agent', 'codex'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).code,
    ).toBe(0);
    const doctor = () => runAgentctx(['doctor', '--json'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
    const codexCheck = (r: { stdout: string }) =>
      (JSON.parse(r.stdout) as { checks: { id: string; status: string; summary: string }[] }).checks.find(
        (c) => c.id === 'codex',
      );
    expect(codexCheck(doctor())).toMatchObject({ status: 'ok' });
    // the user raises one timeout by hand: Codex now holds that hook's hash as changed
    const hooksPath = join(w.codexHome, 'hooks.json');
    const edited = readFileSync(hooksPath, 'utf8').replace(
      /("command": "agentctx hook stop --agent codex 2>\/dev\/null \|\| true",\s*"timeout": )10/,
      '$111',
    );
    writeFileSync(hooksPath, edited);
    const bad = doctor();
    expect(bad.code).toBe(1);
    expect(codexCheck(bad)).toMatchObject({ status: 'fail' });
    expect(codexCheck(bad)?.summary).toContain(
      'registered but not trusted (Codex skips them): stop (modified)',
    );
    expect(
      runAgentctx(['init', '--agent', 'codex'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).code,
    ).toBe(0);
    expect(codexCheck(doctor())).toMatchObject({ status: 'ok' });
  }, 120_000);

  it('status and doctor list each agent: registered, hooks trusted, MCP server, last session seen', () => {
    const w = world();
    expect(runAgentctx(['init', '--agent', 'all'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).code).toBe(
      0,
    );
    const hook = runAgentctx(['hook', 'session-start', '--agent', 'codex'], {
      cwd: w.repo,
      env: w.env,
      input: JSON.stringify({
        session_id: 'codex-sess-1',
        cwd: w.repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    });
    expect(hook.code).toBe(0);
    const status = runAgentctx(['status', '--json'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
    expect(status.code, status.stderr).toBe(0);
    const agents = (JSON.parse(status.stdout) as { agents: Record<string, unknown>[] }).agents;
    expect(agents.find((x) => x.agent === 'codex')).toMatchObject({
      hooks: EVENTS,
      trusted: { trusted: EVENTS.length, of: EVENTS.length },
      mcp: true,
      last_session: { session_id: 'codex-sess-1' },
    });
    // --agent all registered Claude Code too (through the file: no claude on this PATH)
    const claude = agents.find((x) => x.agent === 'claude-code') as { hooks: string[]; mcp: boolean };
    expect(claude.hooks).toContain('SessionStart');
    expect(claude.mcp).toBe(true);
    // the per-agent lines are details: behind --verbose
    const text = runAgentctx(['status', '--verbose'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).stdout;
    expect(text).toMatch(
      /agent {5}Codex: hooks for 7 event\(s\), 7\/7 trusted, MCP answering \(7 tools, \d+ ms\), last session just now \(codex-sess-1\)/,
    );
    const doctor = runAgentctx(['doctor'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 }).stdout;
    expect(doctor).toContain(
      '7 hooks registered and trusted; MCP server in config.toml; last session just now',
    );
  }, 120_000);
});
