import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #7: the SessionStart notice "run `agentctx team import`" went out as
 * additionalContext only: the model read it, the developer who must run it did not. It now
 * also goes out as the hook's systemMessage (shown to the person), and `status` shows it.
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let a: NodeJS.ProcessEnv;
let b: NodeJS.ProcessEnv;

beforeAll(() => {
  t = tempDir();
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  for (const who of ['a', 'b']) mkdirSync(join(t.path, who), { recursive: true });
  a = isolatedEnv(join(t.path, 'a'));
  b = isolatedEnv(join(t.path, 'b'));
  // developer A shares a decision through the team file; B has not imported it
  expect(
    runAgentctx(
      ['record', '--type', 'decision', '--title', 'Orders in Postgres', '--body', 'No SQLite in prod.'],
      { cwd: repo, env: a },
    ).code,
  ).toBe(0);
  expect(runAgentctx(['team', 'export'], { cwd: repo, env: a }).code).toBe(0);
});
afterAll(() => t.cleanup());

function sessionStart(env: NodeJS.ProcessEnv) {
  const input = JSON.stringify({
    session_id: `s-${Date.now()}`,
    cwd: repo,
    hook_event_name: 'SessionStart',
    source: 'startup',
  });
  const r = runAgentctx(['hook', 'session-start'], { cwd: repo, env, input });
  expect(r.code).toBe(0);
  return r.stdout.trim()
    ? (JSON.parse(r.stdout) as { systemMessage?: string; hookSpecificOutput?: { additionalContext: string } })
    : null;
}

describe('a notice the developer must act on', () => {
  it('reaches the developer as systemMessage and the model as context, and status lists it', () => {
    const out = sessionStart(b);
    expect(out?.systemMessage).toContain('run `agentctx team import`');
    expect(out?.hookSpecificOutput?.additionalContext).toContain('run `agentctx team import`');
    const status = runJson<{ notices: string[] }>(['status'], { cwd: repo, env: b });
    expect(status.json.notices).toHaveLength(1);
    expect(runAgentctx(['status'], { cwd: repo, env: b }).stdout).toMatch(
      /^notice {4}.*run `agentctx team import`/m,
    );
  });

  it('goes once the developer acted: no systemMessage, no notice', () => {
    expect(runAgentctx(['team', 'import'], { cwd: repo, env: b }).code).toBe(0);
    expect(sessionStart(b)?.systemMessage).toBeUndefined();
    expect(runJson<{ notices: string[] }>(['status'], { cwd: repo, env: b }).json.notices).toEqual([]);
  });
});
