import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentctxBinDir } from '../../support/claude.js';
import { isolatedEnv, runAgentctx } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/** `agentctx doctor` names each other agent it finds, and what of agentctx is missing there. */

let tmp: { path: string; cleanup: () => void };
let repo: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  tmp = tempDir('agentctx-doctor-agents-');
  mkdirSync(join(tmp.path, 'tmp'));
  repo = fakeRepo(tmp.path, 'repo', null);
  // agentctx on PATH, as the MCP server entries init writes start `agentctx mcp`
  env = isolatedEnv(tmp.path, {
    TMPDIR: join(tmp.path, 'tmp'),
    PATH: `${agentctxBinDir(tmp.path)}:${process.env.PATH}`,
  });
});
afterAll(() => tmp?.cleanup());

interface Check {
  id: string;
  status: string;
  summary: string;
  fix?: string;
}
function checks(): Record<string, Check> {
  const r = runAgentctx(['doctor', '--json'], { cwd: repo, env, timeoutMs: 60_000 });
  const v = JSON.parse(r.stdout) as { checks: Check[] };
  return Object.fromEntries(v.checks.map((c) => [c.id, c]));
}

describe('doctor and the other agents', () => {
  it('found but not registered, registered, then a hook edited away', () => {
    mkdirSync(join(tmp.path, '.cursor'), { recursive: true });
    let c = checks();
    expect(c.cursor?.status).toBe('ok');
    expect(c.cursor?.summary).toContain('agentctx init --agent cursor');
    expect(c.qwen).toBeUndefined();

    expect(runAgentctx(['init', '--agent', 'qwen'], { cwd: repo, env }).code).toBe(0);
    c = checks();
    expect(c.qwen).toMatchObject({ status: 'ok', summary: 'Qwen Code: hooks and MCP server registered' });

    const path = join(tmp.path, '.qwen', 'settings.json');
    const s = JSON.parse(readFileSync(path, 'utf8')) as { hooks: Record<string, unknown> };
    delete s.hooks.UserPromptSubmit;
    writeFileSync(path, JSON.stringify(s, null, 2));
    c = checks();
    expect(c.qwen).toMatchObject({ status: 'warn', fix: 'run agentctx init --agent qwen' });
    expect(c.qwen?.summary).toContain('hooks missing for UserPromptSubmit');
  });
});

describe('status and the other agents', () => {
  it('lists an agent registered by init, and the last session its hooks saw', () => {
    expect(runAgentctx(['init', '--agent', 'gemini'], { cwd: repo, env }).code).toBe(0);
    const hook = runAgentctx(['hook', 'session-start', '--agent', 'gemini'], {
      cwd: repo,
      env,
      input: JSON.stringify({
        session_id: 'gem-s1',
        cwd: repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
    });
    expect(hook.code).toBe(0);
    // the per-agent lines are details: status shows them with --verbose
    const r = runAgentctx(['status', '--verbose'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /agent {5}Gemini CLI: hooks for 5 event\(s\), MCP answering \(\d+ tools, \d+ ms\), last session .*\(gem-s1\)/,
    );
    // plain status starts no MCP server
    expect(runAgentctx(['status'], { cwd: repo, env }).stdout).not.toContain('answering');
    const j = JSON.parse(runAgentctx(['status', '--json'], { cwd: repo, env }).stdout) as {
      agents: { agent: string; hooks: string[]; mcp: boolean }[];
    };
    expect(j.agents.find((x) => x.agent === 'gemini')).toMatchObject({ mcp: true });
  });
});

describe('MCP answering, per agent', () => {
  const mcpCheck = (id: string) => checks()[`${id}-mcp`];
  it('reports a registered server that answers, one that cannot start, and one that never answers', () => {
    expect(runAgentctx(['init', '--agent', 'cursor'], { cwd: repo, env }).code).toBe(0);
    expect(mcpCheck('cursor')).toMatchObject({ status: 'ok' });
    expect(mcpCheck('cursor')?.summary).toMatch(/^Cursor: MCP server answers \(\d+ tools, \d+ ms\)$/);

    const path = join(tmp.path, '.cursor', 'mcp.json');
    const good = readFileSync(path, 'utf8');
    const broken = JSON.parse(good) as { mcpServers: { agentctx: { command: string; args: string[] } } };
    broken.mcpServers.agentctx.command = 'agentctx-not-installed';
    writeFileSync(path, JSON.stringify(broken));
    const c = mcpCheck('cursor');
    expect(c).toMatchObject({ status: 'fail', fix: expect.stringContaining('agentctx init --agent cursor') });
    expect(c?.summary).toContain(
      'Cursor: the MCP server it starts (agentctx-not-installed mcp) does not answer',
    );
    const doctor = runAgentctx(['doctor'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(doctor.code).toBe(1);

    // a command that starts and says nothing: reported within the timeout, not waited on
    broken.mcpServers.agentctx.command = 'sleep';
    broken.mcpServers.agentctx.args = ['60'];
    writeFileSync(path, JSON.stringify(broken));
    const t0 = Date.now();
    const hung = mcpCheck('cursor');
    expect(Date.now() - t0).toBeLessThan(30_000);
    expect(hung?.status).toBe('fail');
    expect(hung?.summary).toContain('no answer to initialize within 5000 ms');
    const verbose = runAgentctx(['status', '--verbose'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(verbose.stdout).toMatch(
      /agent {5}Cursor: .*MCP not answering: no answer to initialize within 5000 ms/,
    );
    writeFileSync(path, good);
  }, 120_000);

  it('starts Codex’s server as Codex does: only HOME, PATH, TMPDIR and the env_vars it lists', () => {
    const codexHome = join(tmp.path, '.codex');
    mkdirSync(codexHome, { recursive: true });
    const table = [
      '[mcp_servers.agentctx]',
      'command = "agentctx"',
      'args = ["mcp"]',
      'env = { AGENTCTX_AGENT = "codex" }',
      'env_vars = ["AGENTCTX_HOME"]',
      '',
    ].join('\n');
    writeFileSync(join(codexHome, 'config.toml'), table);
    const e = { ...env, CODEX_HOME: codexHome };
    const run = () => {
      const r = runAgentctx(['doctor', '--json'], { cwd: repo, env: e, timeoutMs: 60_000 });
      return (JSON.parse(r.stdout) as { checks: Check[] }).checks.find((c) => c.id === 'codex-mcp');
    };
    expect(run()).toMatchObject({ status: 'ok' });
    // a command that is not installed: what Codex would meet too
    writeFileSync(
      join(codexHome, 'config.toml'),
      table.replace('command = "agentctx"', 'command = "agentctx-gone"'),
    );
    expect(run()?.status).toBe('fail');
  }, 120_000);
});
