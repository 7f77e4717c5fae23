import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigest, writeDigest } from '../../src/core/digest/digest-file.js';
import { openDb } from '../../src/database/open.js';
import { readRetirementCounters } from '../../src/database/retirement.js';
import { gitRepo, waitFor } from '../support/claude.js';
import { BIN, runAgentctx, runJson, spawnCollect } from '../support/cli.js';
import { CODEX_BIN, codexEnv, rolloutFiles, runCodexExec, writeCodexConfig } from '../support/codex.js';
import {
  developerTexts,
  type FakeResponsesApi,
  type RecordedResponsesRequest,
  startFakeResponsesApi,
  turnRequests,
} from '../support/fake-responses-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The whole loop with the real Codex CLI, offline: `agentctx init --agent codex` into a
 * throwaway CODEX_HOME (hooks, MCP server, trust through codex app-server), then `codex exec`
 * against the fake Responses API, without `--dangerously-bypass-hook-trust`. What agentctx
 * injects must arrive in the requests Codex sends; what happens in the session must land in
 * the store. agentctx's home is not the default one, so the MCP server finds the store only
 * through the variables init has Codex pass on.
 */

const DIGEST_MARK = 'DIGEST-MARK-c0d3';
const RECORD_MARK = 'LEDGER-RETRY-MARK-41';
const RECORD_TITLE = 'Ledger retries back off exponentially';
const PROMPT = 'Why do the ledger retries back off, and what does the payments check say?';

/** What the model answers the extraction run: a handover and a gotcha of the session. */
const EXTRACTION = {
  decisions: [],
  preferences: [],
  conventions: [],
  active_work: {
    current_task: 'Explain why the ledger retries back off and fix the payments check',
    blockers: ['the payments check throws'],
    next_steps: ['Find why the payments check explodes'],
    open_questions: [],
  },
  gotchas: [
    {
      pattern: 'The payments check throws instead of failing with a message',
      why_it_matters: 'its error hides the cause',
    },
  ],
  bugfix_enrichments: null,
  reinforces: null,
  flush_ok: false,
};

/** A request of the nested `codex exec` extraction: Codex asks for structured output. */
function isExtraction(req: RecordedResponsesRequest): boolean {
  return (req.body.text as { format?: { type?: string } } | undefined)?.format?.type === 'json_schema';
}

function hasOutput(req: RecordedResponsesRequest, marker: string): boolean {
  const input = Array.isArray(req.body.input) ? (req.body.input as Record<string, unknown>[]) : [];
  return input.some(
    (i) => i.type === 'function_call_output' && JSON.stringify(i.output ?? '').includes(marker),
  );
}

describe.skipIf(!CODEX_BIN)('agentctx inside a real codex exec session', () => {
  let api: FakeResponsesApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let dataHome: string;
  let projectId: string;
  let recordId: string;
  let run: { code: number | null; stdout: string; stderr: string };

  beforeAll(async () => {
    api = await startFakeResponsesApi((req) => {
      // the extraction after Stop: codex exec asked for structured output (the codex-cli backend)
      if (isExtraction(req)) return [{ type: 'text', text: JSON.stringify(EXTRACTION) }];
      if (turnRequests(api).indexOf(req) < 0) return [{ type: 'text', text: '{"title":"Ledger retries"}' }];
      if (!req.raw.includes(PROMPT)) return [{ type: 'text', text: 'Nothing to add.' }];
      // the tool loop: a failing command, then ctx_search through Codex's MCP, then the answer
      if (!hasOutput(req, 'Process exited'))
        return [
          {
            type: 'function_call',
            name: 'exec_command',
            arguments: { cmd: `node -e "throw new Error('payments check exploded in codex e2e')"` },
          },
        ];
      if (!hasOutput(req, RECORD_TITLE))
        return [
          {
            type: 'function_call',
            namespace: 'mcp__agentctx',
            name: 'ctx_search',
            arguments: { query: 'ledger retries back off' },
          },
        ];
      return [{ type: 'text', text: 'The retries back off exponentially; the payments check fails.' }];
    });
    home = tempDir('agentctx-codex-e2e-');
    repo = gitRepo(join(home.path, 'work', 'shop'), 'https://github.com/example/codex-shop.git');
    dataHome = join(home.path, 'agentctx-data');
    env = codexEnv(home.path, { AGENTCTX_HOME: dataHome });
    writeCodexConfig(env.CODEX_HOME as string, api.url, [repo]);
    // asynchronously: codex app-server (which init talks to) may call the fake API in this process
    const init = await spawnCollect(process.execPath, [BIN, 'init', '--agent', 'codex', '--json'], {
      cwd: repo,
      env,
      timeoutMs: 60_000,
    });
    expect(init.code, init.stderr).toBe(0);
    const initJson = JSON.parse(init.stdout) as {
      project: { id: string };
      codex: { trust: { status: string } };
    };
    expect(initJson.codex.trust.status).toBe('trusted');
    projectId = initJson.project.id;
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        RECORD_TITLE,
        '--body',
        `Ledger write retries back off exponentially from 200 ms, five attempts at most. ${RECORD_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    recordId = rec.json.id;
    writeDigest(join(dataHome, 'digests'), projectId, {
      text: `## Project context (agentctx)\n- decision: orders live in Postgres. ${DIGEST_MARK}`,
      ids: [],
      tokens: 20,
      generated_at: new Date().toISOString(),
      retire_stamp: readRetirementCounters(join(dataHome, 'agentctx.db')).begun,
    });
    run = await runCodexExec({ cwd: repo, env, prompt: PROMPT, timeoutMs: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('the session ran with the hooks trusted by init (no bypass flag)', () => {
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    expect(run.stderr).toContain('hook: SessionStart Completed');
    expect(run.stderr).toContain('hook: UserPromptSubmit Completed');
    expect(run.stderr).not.toContain('dangerously-bypass-hook-trust');
  });

  it("the first model request carries the digest, and the prompt's request the matching record", () => {
    const first = turnRequests(api)[0]!;
    const dev = developerTexts(first).join('\n');
    expect(dev).toContain(DIGEST_MARK);
    expect(dev).toContain(RECORD_MARK);
    expect(dev).toContain(recordId);
    // Codex's cap by construction: every hook text within 2,500 Codex tokens (ceil(bytes/4))
    for (const t of developerTexts(first).filter((x) => x.includes('agentctx')))
      expect(Math.ceil(Buffer.byteLength(t, 'utf8') / 4)).toBeLessThanOrEqual(2_500);
  });

  it('ctx_search goes through Codex to the agentctx MCP server and back', () => {
    const first = turnRequests(api)[0]!;
    const tools = first.body.tools as { type?: string; name?: string; tools?: { name?: string }[] }[];
    const ns = tools.find((t) => t.type === 'namespace' && t.name === 'mcp__agentctx');
    expect(ns?.tools?.map((t) => t.name)).toContain('ctx_search');
    // the store is in a non-default AGENTCTX_HOME: found through config.toml's env_vars
    const answered = turnRequests(api).find((r) => hasOutput(r, RECORD_TITLE));
    expect(answered, 'a request carrying the ctx_search result').toBeTruthy();
    expect(JSON.stringify(answered!.body.input)).toContain(recordId);
  });

  it('PostToolUse captures the failing command as a bugfix stub of the Codex session', async () => {
    const db = join(dataHome, 'agentctx.db');
    const stub = await waitFor(
      () => {
        const d = openDb(db, { readonly: true });
        try {
          return d
            .prepare(
              `SELECT title, session_id, agent FROM records WHERE project_id = ? AND type = 'bugfix' AND title LIKE ?`,
            )
            .get(projectId, '%payments check exploded%') as
            | { title: string; session_id: string; agent: string }
            | undefined;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 20_000, what: 'the bugfix stub from PostToolUse' },
    );
    expect(stub.title).toMatch(/^Error: payments check exploded in codex e2e/);
    expect(stub.agent).toBe('codex');
    const rollout = rolloutFiles(env.CODEX_HOME as string)[0]!;
    expect(rollout).toContain(stub.session_id);
  });

  it("Stop leads to extraction from Codex's rollout through codex exec: a handover of the session", async () => {
    const rollout = rolloutFiles(env.CODEX_HOME as string)[0]!;
    expect(existsSync(rollout)).toBe(true);
    const handover = await waitFor(
      () => {
        const d = openDb(join(dataHome, 'agentctx.db'), { readonly: true });
        try {
          return d
            .prepare(
              `SELECT id, title, body, session_id, agent FROM records WHERE project_id = ? AND type = 'handover'`,
            )
            .get(projectId) as
            | { id: string; title: string; body: string; session_id: string; agent: string }
            | undefined;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 30_000, what: 'the handover extracted from the rollout' },
    );
    expect(rollout).toContain(handover.session_id);
    // made by the model through codex exec (no Anthropic key, no claude here): the auto backend
    expect(handover.body).toContain('Explain why the ledger retries back off');
    const extraction = api.requests.find(isExtraction);
    expect(extraction?.raw, 'the rollout went to the extraction').toContain('ledger retries back off');
    const d = openDb(join(dataHome, 'agentctx.db'), { readonly: true });
    try {
      const run = d
        .prepare('SELECT via, mode, backend FROM extraction_runs WHERE session_id = ?')
        .get(handover.session_id);
      expect(run).toEqual({ via: 'hook', mode: 'llm', backend: 'codex-cli' });
    } finally {
      d.close();
    }
    // provenance: written by Codex, and so shown by search --json and in the next digest
    expect(handover.agent).toBe('codex');
    const found = runJson<{ results: { id: string; agent: string }[] }>(
      ['search', 'ledger retries', '--type', 'handover'],
      {
        cwd: repo,
        env,
      },
    );
    expect(found.json.results.find((r) => r.id === handover.id)?.agent).toBe('codex');
    const digest = await waitFor(
      () => {
        const d = readDigest(join(dataHome, 'digests'), projectId);
        return d?.text.includes('Task (Codex, ') ? d : null;
      },
      { timeoutMs: 30_000, what: 'the digest refreshed after the extraction' },
    );
    expect(digest.text).toMatch(/Task \(Codex, [^)]*\): /);
  });

  it('uninstall takes agentctx out of the next Codex session', async () => {
    const un = runAgentctx(['uninstall', '--agent', 'codex'], { cwd: repo, env });
    expect(un.code, un.stderr).toBe(0);
    const before = api.requests.length;
    const again = await runCodexExec({ cwd: repo, env, prompt: 'Anything about ledger retries?' });
    expect(again.code, again.stderr).toBe(0);
    const turns = turnRequests(api).filter((r) => api.requests.indexOf(r) >= before);
    expect(turns.length).toBeGreaterThan(0);
    for (const t of turns) {
      expect(t.raw).not.toContain(DIGEST_MARK);
      expect(t.raw).not.toContain('mcp__agentctx');
    }
  }, 120_000);
});
