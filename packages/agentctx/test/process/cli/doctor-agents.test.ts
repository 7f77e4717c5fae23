import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
  env = isolatedEnv(tmp.path, { TMPDIR: join(tmp.path, 'tmp') });
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
      /agent {5}Gemini CLI: hooks for 5 event\(s\), MCP server registered, last session .*\(gem-s1\)/,
    );
    const j = JSON.parse(runAgentctx(['status', '--json'], { cwd: repo, env }).stdout) as {
      agents: { agent: string; hooks: string[]; mcp: boolean }[];
    };
    expect(j.agents.find((x) => x.agent === 'gemini')).toMatchObject({ mcp: true });
  });
});
