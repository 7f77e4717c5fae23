import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDigest } from '../../src/core/digest/digest-file.js';
import { openDb } from '../../src/database/open.js';
import { isAgentTurn } from '../support/agent-requests.js';
import { CLAUDE_BIN, gitRepo, removeHomeAfterBackground, runClaude, waitFor } from '../support/claude.js';
import { BIN, runAgentctx, spawnCollect } from '../support/cli.js';
import { CODEX_BIN, codexEnv, runCodexExec, writeCodexConfig } from '../support/codex.js';
import { type FakeApi, type RecordedRequest, startFakeApi } from '../support/fake-messages-api.js';
import {
  developerTexts,
  type FakeResponsesApi,
  startFakeResponsesApi,
  turnRequests,
} from '../support/fake-responses-api.js';
import { tempDir } from '../support/tmp.js';

/**
 * One store, two agents, both real clients offline: a decision recorded in a Claude Code
 * session (ctx_record over MCP) reaches the next Codex session's first model request, and the
 * handover the Codex session leaves (extracted from its rollout) reaches the next Claude Code
 * session, labelled as Codex's.
 */

const DECISION_TITLE = 'Invoices move to cold storage after 90 days';
const CLAUDE_MARK = 'CROSS-CLAUDE-RUN-3e1';
const CODEX_PROMPT = 'Where do old invoices go, and should the archiver run nightly?';

function toolResultCount(req: RecordedRequest): number {
  return req.raw.split('"tool_result"').length - 1;
}

function currentHandover(db: string, projectId: string) {
  const d = openDb(db, { readonly: true });
  try {
    return d
      .prepare(
        `SELECT id, body, agent FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL`,
      )
      .get(projectId) as { id: string; body: string; agent: string } | undefined;
  } finally {
    d.close();
  }
}

describe.skipIf(!CLAUDE_BIN || !CODEX_BIN)('Claude Code and Codex share one project memory', () => {
  let claudeApi: FakeApi;
  let codexApi: FakeResponsesApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let projectId: string;
  let decisionId: string;

  beforeAll(async () => {
    claudeApi = await startFakeApi((req) => {
      if (!isAgentTurn(req) || !req.raw.includes(CLAUDE_MARK))
        return { content: [{ type: 'text', text: 'Noted.' }] };
      const done = toolResultCount(req);
      if (done === 0)
        return {
          content: [
            { type: 'tool_use', name: 'ToolSearch', input: { query: 'select:mcp__agentctx__ctx_record' } },
          ],
        };
      if (done === 1)
        return {
          content: [
            {
              type: 'tool_use',
              name: 'mcp__agentctx__ctx_record',
              input: {
                type: 'decision',
                title: DECISION_TITLE,
                body: 'Invoices older than 90 days are moved to the cold-storage bucket by the archiver job.',
              },
            },
          ],
        };
      return { content: [{ type: 'text', text: 'Recorded the archiving decision.' }] };
    });
    codexApi = await startFakeResponsesApi((req) => {
      if (turnRequests(codexApi).indexOf(req) < 0) return [{ type: 'text', text: '{"title":"Invoices"}' }];
      return [
        { type: 'text', text: 'They go to cold storage after 90 days; next: schedule the archiver nightly.' },
      ];
    });
    home = tempDir('agentctx-cross-agent-');
    repo = gitRepo(join(home.path, 'work', 'billing'), 'https://github.com/example/billing.git');
    env = codexEnv(home.path, {
      ANTHROPIC_BASE_URL: claudeApi.url,
      ANTHROPIC_API_KEY: 'sk-test',
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_TELEMETRY: '1',
      DISABLE_AUTOUPDATER: '1',
      DISABLE_ERROR_REPORTING: '1',
      ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}),
    });
    writeCodexConfig(env.CODEX_HOME as string, codexApi.url, [repo]);
    const init = await spawnCollect(
      process.execPath,
      [BIN, 'init', '--agent', 'all', '--no-claude-cli', '--json'],
      {
        cwd: repo,
        env,
        timeoutMs: 60_000,
      },
    );
    expect(init.code, init.stderr).toBe(0);
    const json = JSON.parse(init.stdout) as { project: { id: string }; codex: { trust: { status: string } } };
    expect(json.codex.trust.status).toBe('trusted');
    projectId = json.project.id;
    // rule-based extraction: the Anthropic key here is Claude Code's, for the fake API
    expect(runAgentctx(['config', '--no-llm'], { cwd: repo, env }).code).toBe(0);
  }, 90_000);

  afterAll(async () => {
    await claudeApi?.close();
    await codexApi?.close();
    if (home) await removeHomeAfterBackground(home.path);
  });

  it("a decision recorded in a Claude Code session arrives in the next Codex session's first request", async () => {
    const run = await runClaude({
      cwd: repo,
      env,
      prompt: `Record that invoices go to cold storage after 90 days. ${CLAUDE_MARK}`,
      allowedTools: ['mcp__agentctx'],
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const db = join(home.path, '.agentctx', 'agentctx.db');
    const rec = await waitFor(
      () => {
        const d = openDb(db, { readonly: true });
        try {
          return d.prepare(`SELECT id, agent FROM records WHERE title = ?`).get(DECISION_TITLE) as
            | { id: string; agent: string }
            | undefined;
        } finally {
          d.close();
        }
      },
      { what: 'the decision recorded over MCP' },
    );
    expect(rec.agent).toBe('claude-code');
    decisionId = rec.id;

    const codex = await runCodexExec({ cwd: repo, env, prompt: CODEX_PROMPT });
    expect(codex.code, codex.stderr).toBe(0);
    const first = turnRequests(codexApi)[0]!;
    // hook context (the digest, or the prompt's records) as Codex puts it: developer messages
    const fromAgentctx = developerTexts(first).filter(
      (t) => t.includes('agentctx') || t.includes('Project context'),
    );
    expect(fromAgentctx.join('\n')).toContain(DECISION_TITLE);
    expect(decisionId).toBeTruthy();
  }, 180_000);

  it("the Codex session's handover arrives in the next Claude Code session, as Codex's", async () => {
    const db = join(home.path, '.agentctx', 'agentctx.db');
    const handover = await waitFor(
      () => {
        const h = currentHandover(db, projectId);
        return h?.agent === 'codex' ? h : null;
      },
      { timeoutMs: 30_000, what: "the Codex session's handover" },
    );
    expect(handover.body).toContain('Where do old invoices go');
    await waitFor(
      () => readDigest(join(home.path, '.agentctx', 'digests'), projectId)?.text.includes('Task (Codex, '),
      {
        timeoutMs: 30_000,
        what: 'the digest refreshed with the Codex handover',
      },
    );
    const before = claudeApi.requests.length;
    const run = await runClaude({ cwd: repo, env, prompt: 'Where did we leave off?' });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const turn = claudeApi.requests.filter(
      (r) => isAgentTurn(r) && claudeApi.requests.indexOf(r) >= before,
    )[0]!;
    expect(turn.raw).toContain('Task (Codex, ');
    expect(turn.raw).toContain('Where do old invoices go');
  }, 180_000);
});
