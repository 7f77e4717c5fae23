import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../src/database/sqlite.js';
import { estimateTokens } from '../../src/shared/tokens.js';
import { isAgentTurn, resultText, toolResults } from '../support/agent-requests.js';
import { CLAUDE_BIN, claudeEnv, gitRepo, removeHomeAfterBackground, runClaude } from '../support/claude.js';
import { runJson } from '../support/cli.js';
import { type FakeApi, startFakeApi } from '../support/fake-messages-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * The MCP server inside a real `claude -p` session. Claude Code 2.1.3xx defers MCP tools behind
 * ToolSearch (their names are listed, their schemas are not loaded), so the fake Messages API
 * plays the model as it would have to: load the two tools with ToolSearch, call
 * `mcp__agentctx__ctx_search`, then `ctx_get` the id it got back. Claude Code spawns
 * `agentctx mcp` (registered by `agentctx init`), runs the calls, and must send the index — and
 * then the body — back in the next request.
 */

const RUN_MARK = 'MCP-E2E-RUN';
const BODY_MARK = 'BODY-MARK-5d21';
const WRITE_MARK = 'WRITE-MARK-c7e0';

/** The tool_result blocks of the last user message of a request. */

/** A turn of the session's agent loop (not title generation or background extraction). */

describe.skipIf(!CLAUDE_BIN)('agentctx mcp inside a real claude -p session', () => {
  let api: FakeApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let recordId: string;

  beforeAll(async () => {
    api = await startFakeApi((req) => {
      if (!isAgentTurn(req) || !req.raw.includes(RUN_MARK))
        return { content: [{ type: 'text', text: 'Noted.' }] };
      const results = toolResults(req);
      const use = (name: string, input: unknown) => ({
        content: [{ type: 'tool_use' as const, name, input }],
      });
      if (results.length === 0) {
        return use('ToolSearch', {
          query: 'select:mcp__agentctx__ctx_search,mcp__agentctx__ctx_get,mcp__agentctx__ctx_record',
          max_results: 5,
        });
      }
      if (results.length === 1) return use('mcp__agentctx__ctx_search', { query: 'webhook retry backoff' });
      if (results.length === 2) {
        const index = JSON.parse(resultText(results[1]!)) as { results: { id: string }[] };
        return use('mcp__agentctx__ctx_get', { ids: [index.results[0]?.id ?? 'none'] });
      }
      if (results.length === 3) {
        return use('mcp__agentctx__ctx_record', {
          type: 'discovery',
          title: 'Retry cap is enforced by the scheduler',
          body: `The 10-minute backoff cap lives in the job scheduler, not in the webhook client. ${WRITE_MARK}`,
        });
      }
      return { content: [{ type: 'text', text: 'Webhooks retry with exponential backoff.' }] };
    });
    home = tempDir('agentctx-e2e-mcp-');
    repo = gitRepo(join(home.path, 'work', 'hooks-svc'), 'https://github.com/example/hooks-svc.git');
    env = claudeEnv(home.path, api.url);
    const init = runJson(['init', '--no-claude-cli'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        'Webhook deliveries retry with exponential backoff',
        '--body',
        `Failed webhook deliveries retry 6 times with exponential backoff capped at 10 minutes. ${BODY_MARK}`,
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    recordId = rec.json.id;
  }, 60_000);

  afterAll(async () => {
    await api?.close();
    // Stop/SessionEnd hooks leave detached extract/consolidate children writing under HOME
    await removeHomeAfterBackground(home.path);
  });

  it('returns the ctx_search index, then the ctx_get body, in the next request bodies', async () => {
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: `What is our retry policy? ${RUN_MARK}`,
      allowedTools: ['mcp__agentctx'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turns = api.requests.filter((r) => isAgentTurn(r) && r.raw.includes(RUN_MARK));
    expect(turns.length).toBe(5);
    // the seven tools are offered (deferred: listed by name until ToolSearch loads them)
    for (const name of [
      'ctx_search',
      'ctx_get',
      'ctx_record',
      'ctx_supersede',
      'ctx_project',
      'ctx_related',
      'ctx_sync_claudemd',
    ]) {
      expect(turns[0]!.raw).toContain(`mcp__agentctx__${name}`);
    }
    // after ToolSearch the schema (and our description) is loaded into tools[]
    const loaded = (turns[1]!.body.tools as { name: string; description?: string }[]).find(
      (t) => t.name === 'mcp__agentctx__ctx_search',
    );
    expect(loaded?.description).toContain('compact index');

    // turn 3 carries the search result: the index entry, no body
    const search = toolResults(turns[2]!)[1];
    expect(search?.is_error ?? false).toBe(false);
    const index = JSON.parse(resultText(search!)) as { results: Record<string, unknown>[] };
    expect(index.results[0]).toMatchObject({
      id: recordId,
      type: 'decision',
      title: 'Webhook deliveries retry with exponential backoff',
      confidence: 'explicit',
    });
    expect(resultText(search!)).not.toContain(BODY_MARK);

    // turn 4 carries the full record from ctx_get
    const got = toolResults(turns[3]!).at(-1)!;
    const full = JSON.parse(resultText(got)) as { records: Record<string, unknown>[]; missing: string[] };
    expect(full.missing).toEqual([]);
    expect(full.records[0]?.id).toBe(recordId);
    expect(String(full.records[0]?.body)).toContain(BODY_MARK);

    const db = new Database(join(home.path, '.agentctx', 'agentctx.db'), { readonly: true });
    try {
      const row = db.prepare('SELECT access_count FROM records WHERE id = ?').get(recordId) as {
        access_count: number;
      };
      expect(row.access_count).toBe(1);
      const session = db
        .prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?')
        .get(run.sessionId) as { tokens_injected: number } | undefined;
      // the server knows Claude Code's session: the write carries it, and the reads were counted
      const written = db
        .prepare('SELECT source, confidence, session_id FROM records WHERE body LIKE ?')
        .get(`%${WRITE_MARK}%`) as { source: string; confidence: string; session_id: string } | undefined;
      expect(written).toEqual({ source: 'mcp_tool', confidence: 'explicit', session_id: run.sessionId });
      const mcpTokens = estimateTokens(resultText(search!)) + estimateTokens(resultText(got));
      expect(session?.tokens_injected ?? 0).toBeGreaterThanOrEqual(mcpTokens);
    } finally {
      db.close();
    }
  });
});
