import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listHooks, openAppServer, trustHooks } from '../../../src/codex/app-server.js';
import { BIN, runAgentctx, spawnCollect } from '../../support/cli.js';
import { CODEX_BIN, codexEnv, rolloutFiles, runCodexExec, writeCodexConfig } from '../../support/codex.js';
import { extractArgs, runAsync, type Workspace, workspace } from '../../support/extract-harness.js';
import {
  type FakeResponsesApi,
  type RecordedResponsesRequest,
  startFakeResponsesApi,
} from '../../support/fake-responses-api.js';
import { tempDir } from '../../support/tmp.js';
import { TranscriptBuilder, workSession } from '../../support/transcript-fixture.js';

/**
 * `codex exec` as the extraction backend, for a Codex user with no Anthropic key and no claude:
 * the built `agentctx extract` runs the real `codex` against the fake Responses API. `auto`
 * picks it (codex on PATH with a model provider of the user's own); the answer, asked for in
 * OpenAI's strict structured-output form, goes through the same zod schema into records; the
 * run is recorded in extraction_runs, which doctor reads. The nested run runs no hook (a canary
 * hook of the user's, trusted, that an ordinary `codex exec` does run), starts no MCP server,
 * offers the model no tool, and leaves no rollout.
 */

const OUTPUT = {
  decisions: [
    {
      what: 'Use undici as the HTTP client instead of node-fetch.',
      rationale: 'node-fetch is unmaintained.',
      supersedes: null,
      confidence: 'explicit',
    },
  ],
  preferences: [
    { category: 'style', rule: 'Always indent with tabs.', confidence: 'explicit', scope: 'global' },
  ],
  conventions: [],
  active_work: {
    current_task: 'Migrate the HTTP client to undici',
    blockers: [],
    next_steps: ['Migrate src/http/upload.ts'],
    open_questions: [],
  },
  gotchas: [{ pattern: 'undici pools connections in tests', why_it_matters: 'set pipelining to 0' }],
  // the strict form makes optional fields nullable: a model may answer null for them
  bugfix_enrichments: null,
  reinforces: null,
  flush_ok: false,
};

/** A request of the nested extraction run: Codex asks for structured output. */
function isExtraction(req: RecordedResponsesRequest): boolean {
  const format = (req.body.text as { format?: { type?: string } } | undefined)?.format;
  return format?.type === 'json_schema';
}

describe.skipIf(!CODEX_BIN)('extract with the codex exec backend (real codex, fake Responses API)', () => {
  let api: FakeResponsesApi;
  let t: ReturnType<typeof tempDir>;
  let ws: Workspace;
  let env: NodeJS.ProcessEnv;
  let canary: string;
  let out: Record<string, any>;
  let rolloutsBefore: number;

  beforeAll(async () => {
    api = await startFakeResponsesApi((req) =>
      isExtraction(req) ? [{ type: 'text', text: JSON.stringify(OUTPUT) }] : [{ type: 'text', text: 'ok' }],
    );
    t = tempDir('agentctx-codex-cli-');
    ws = workspace(t.path);
    env = codexEnv(ws.home, { AGENTCTX_LLM_MAX_RETRIES: '0' });
    const codexHome = env.CODEX_HOME as string;
    writeCodexConfig(codexHome, api.url, [ws.repo]);
    // agentctx registered in Codex (hooks, MCP server, trust), plus a hook of the user's own
    const init = await spawnCollect(process.execPath, [BIN, 'init', '--agent', 'codex', '--json'], {
      cwd: ws.repo,
      env,
      timeoutMs: 60_000,
    });
    expect(init.code, init.stderr).toBe(0);
    canary = join(t.path, 'canary');
    const hooksPath = join(codexHome, 'hooks.json');
    const hooks = JSON.parse(readFileSync(hooksPath, 'utf8'));
    hooks.hooks.SessionStart.push({ hooks: [{ type: 'command', command: `touch ${canary}`, timeout: 5 }] });
    writeFileSync(hooksPath, JSON.stringify(hooks, null, 2));
    const server = await openAppServer(CODEX_BIN as string, { env, cwd: ws.repo });
    try {
      await trustHooks(
        server,
        (await listHooks(server, ws.repo)).filter((h) => h.trustStatus !== 'trusted'),
      );
    } finally {
      server.close();
    }
    // control: an ordinary codex exec in this CODEX_HOME runs the canary (agentctx's own hooks
    // switched off, so no extraction of the control session runs meanwhile)
    const control = await runCodexExec({
      cwd: ws.repo,
      env: { ...env, AGENTCTX_DISABLE: '1' },
      prompt: 'hello',
    });
    expect(control.code, control.stderr).toBe(0);
    expect(existsSync(canary), 'the canary hook runs in an ordinary session').toBe(true);
    rmSync(canary);
    rolloutsBefore = rolloutFiles(codexHome).length;
    api.requests.length = 0;

    workSession(new TranscriptBuilder('s-codex', ws.repo)).write(ws.transcript('s-codex'));
    const r = await runAsync(extractArgs(ws, 's-codex'), { cwd: ws.repo, env, timeoutMs: 120_000 });
    expect(r.code, r.stderr).toBe(0);
    out = JSON.parse(r.stdout);
  }, 240_000);

  afterAll(async () => {
    await api?.close();
    t?.cleanup();
  });

  it('auto picks codex exec and its answer becomes records through the same schema', () => {
    expect(out.mode).toBe('llm');
    const db = ws.db();
    try {
      const rows = db
        .prepare('SELECT type, title, source, project_id FROM records WHERE session_id = ? ORDER BY rowid')
        .all('s-codex') as { type: string; title: string; source: string; project_id: string }[];
      expect(rows.map((x) => x.type).sort()).toEqual(['decision', 'discovery', 'handover', 'preference']);
      expect(rows.every((x) => x.source === 'llm_extraction')).toBe(true);
      expect(rows.find((x) => x.type === 'decision')?.title).toContain('undici');
      expect(rows.find((x) => x.type === 'preference')?.project_id).toBe('_global');
    } finally {
      db.close();
    }
  });

  it('the request carries the transcript and a strict schema, and offers the model no tool', () => {
    const nested = api.requests.filter(isExtraction);
    expect(nested).toHaveLength(1);
    const req = nested[0]!;
    expect(req.raw).toContain('We are moving the HTTP client to undici');
    const schema = (req.body.text as { format: { schema: Record<string, any>; strict?: boolean } }).format
      .schema;
    expect(schema.additionalProperties).toBe(false);
    expect([...schema.required].sort()).toEqual(Object.keys(schema.properties).sort());
    expect(schema.properties.reinforces.type).toEqual(['array', 'null']);
    const tools = (req.body.tools ?? []) as { type?: string; name?: string }[];
    // request_user_input stays (no switch for it); codex exec refuses to run it
    expect(tools.map((x) => x.name ?? x.type)).toEqual(['request_user_input']);
    // every request of the run is the extraction: no other turn, no subagent
    expect(api.requests.every(isExtraction)).toBe(true);
  });

  it('runs no hook, no MCP server and leaves no rollout', () => {
    expect(existsSync(canary), 'the canary hook did not run in the nested codex').toBe(false);
    expect(rolloutFiles(env.CODEX_HOME as string)).toHaveLength(rolloutsBefore);
    const db = ws.db();
    try {
      // agentctx's own hooks would have written a session row for the nested run
      const sessions = db.prepare('SELECT session_id FROM sessions').all() as { session_id: string }[];
      expect(sessions.map((s) => s.session_id).filter((id) => id !== 's-codex')).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('extraction_runs records the codex-cli backend, and doctor reports it', () => {
    const db = ws.db();
    try {
      const run = db
        .prepare(
          'SELECT mode, configured, backend, model, calls, cost_usd FROM extraction_runs WHERE session_id = ?',
        )
        .get('s-codex') as Record<string, unknown>;
      expect(run).toMatchObject({
        mode: 'llm',
        configured: 'auto',
        backend: 'codex-cli',
        model: 'gpt-5',
        calls: 1,
      });
      expect(run.cost_usd).toBe(0);
    } finally {
      db.close();
    }
    const doc = runAgentctx(['doctor', '--json'], { cwd: ws.repo, env, timeoutMs: 60_000 });
    const check = (JSON.parse(doc.stdout) as { checks: { id: string; summary: string }[] }).checks.find(
      (c) => c.id === 'extraction',
    );
    expect(check?.summary).toMatch(
      /^codex-cli: auto: no ANTHROPIC_API_KEY, claude is not on PATH; codex on PATH/,
    );
    const status = runAgentctx(['status'], { cwd: ws.repo, env, timeoutMs: 60_000 });
    expect(status.stdout).toContain('last extraction used codex-cli');
  });
});
