import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  answer,
  extractArgs,
  isExtraction,
  runAsync,
  useExtractScene,
  type Workspace,
} from '../../support/extract-harness.js';
import type { FakeApi } from '../../support/fake-messages-api.js';
import { TranscriptBuilder, workSession } from '../../support/transcript-fixture.js';

/**
 * Issue 31 #2: the Stop hook's extraction ran with Claude Code's API key and was billed, while
 * `status` from a shell without the key said "llm none (rule-based)". Status and doctor now read
 * the backend from the extractions' own rows and say what the next one uses in each environment.
 * And a session with nothing in it (a greeting, no tool use) costs no model call at all.
 */

let api: FakeApi;
let ws: Workspace;
useExtractScene((scene) => {
  ({ api, ws } = scene);
});

/** The developer's shell: no API key, no claude on PATH (only node). */
function shellEnv(): NodeJS.ProcessEnv {
  const env = ws.env({ PATH: dirname(process.execPath) });
  delete env.ANTHROPIC_API_KEY;
  delete env.ANTHROPIC_BASE_URL;
  return env;
}

describe('the extraction backend, as the extractions used it', () => {
  it('status and doctor from a shell without a key report the API the hook used', async () => {
    workSession(new TranscriptBuilder('s-billed', ws.repo)).write(ws.transcript('s-billed'));
    api.setScript((req) =>
      isExtraction(req)
        ? answer({ active_work: { what: 'Moving the HTTP client to undici.', next_steps: [], files: [] } })
        : answer({}),
    );
    // as the Stop hook runs it: detached, in the agent's environment (which holds the key)
    const r = await runAsync(extractArgs(ws, 's-billed'), {
      cwd: ws.repo,
      env: ws.env({ AGENTCTX_DETACHED: '1' }),
    });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).mode).toBe('llm');
    expect(api.requests.length).toBeGreaterThan(0);

    const status = await runAsync(['status', '--json'], { cwd: ws.repo, env: shellEnv() });
    expect(status.code, status.stderr).toBe(0);
    const llm = JSON.parse(status.stdout).llm;
    expect(llm.active).toBeNull();
    expect(llm.last).toMatchObject({ backend: 'api', via: 'hook', mode: 'llm', session_id: 's-billed' });
    expect(llm.next.sessions).toMatchObject({ backend: 'api', known: true });
    expect(llm.next.shell.backend).toBeNull();

    const text = await runAsync(['status', '--verbose'], { cwd: ws.repo, env: shellEnv() });
    expect(text.stdout).toMatch(/extraction last api \(claude-haiku[^)]*\), from a session hook/);
    expect(text.stdout).toContain('next in sessions: api');
    expect(text.stdout).toContain('next from this shell: none (rule-based)');

    const doctor = await runAsync(['doctor', '--json'], { cwd: ws.repo, env: shellEnv() });
    const checks = JSON.parse(doctor.stdout).checks as { id: string; summary: string }[];
    expect(checks.find((c) => c.id === 'extraction')?.summary).toContain(
      'last session extraction: api, next in sessions: api',
    );
  });

  it('a session that only says hello reaches no Messages API and writes nothing', async () => {
    new TranscriptBuilder('s-hello', ws.repo)
      .user('hello')
      .assistant('Hello! How can I help you today?')
      .user('thanks, bye')
      .assistant('Goodbye!')
      .write(ws.transcript('s-hello'));
    const r = await runAsync(extractArgs(ws, 's-hello'), {
      cwd: ws.repo,
      env: ws.env({ AGENTCTX_DETACHED: '1' }),
    });
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.mode).toBe('nothing_new');
    expect(out.cost_usd).toBe(0);
    expect(api.requests).toEqual([]);
    const db = ws.db();
    try {
      expect(db.prepare('SELECT count(*) AS n FROM records').get()).toEqual({ n: 0 });
    } finally {
      db.close();
    }
  });
});
