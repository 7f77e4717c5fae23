import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolvePaths } from '../../src/app/paths.js';
import { openDb } from '../../src/database/open.js';
import { waitFor } from '../support/claude.js';
import { runAgentctx } from '../support/cli.js';
import {
  declaredTools,
  type FakeGeminiApi,
  type RecordedGeminiRequest,
  requestTexts,
  startFakeGeminiApi,
} from '../support/fake-gemini-api.js';
import { geminiBin, geminiEnv, runGemini, writeGeminiSettings } from '../support/gemini.js';
import { readJson } from '../support/qwen.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * agentctx inside the real Gemini CLI (0.61.0, installed on demand), offline against a fake
 * Gemini API: `agentctx init --agent gemini`, then one `gemini -p` session. SessionStart's
 * digest and BeforeAgent's matching record must reach the model request, `ctx_search` must
 * answer through Gemini's MCP client, AfterTool must capture a failing command, and AfterAgent
 * must leave a handover extracted from Gemini's chat file.
 */

const DECISION = 'Payments go through the ledger service';
const CONVENTION = 'Settlement scripts live in scripts/settle and run with node';
const PROMPT = 'How do payment writes reach the ledger service? Check the settlement script too.';
const ANSWER =
  'Payments keep going through the ledger service; the settlement script is missing and must be restored.';

const turns = (api: FakeGeminiApi) => api.requests.filter((r) => declaredTools(r).length > 0);
const responses = (r: RecordedGeminiRequest) =>
  (Array.isArray(r.body.contents) ? (r.body.contents as { parts?: { functionResponse?: unknown }[] }[]) : [])
    .flatMap((c) => c.parts ?? [])
    .filter((p) => p.functionResponse).length;

describe('agentctx inside a real gemini -p session', () => {
  let api: FakeGeminiApi;
  let home: ReturnType<typeof tempDir>;
  let repo: string;
  let env: NodeJS.ProcessEnv;
  let settingsBefore: string;
  let run: { code: number | null; stdout: string; stderr: string };
  let searchTool = '';

  beforeAll(async () => {
    geminiBin(); // installs the client on the first run (outside the session's timeout)
    api = await startFakeGeminiApi((req) => {
      const tools = declaredTools(req);
      if (tools.length === 0) return { type: 'text', text: 'ok' };
      searchTool = tools.find((t) => t.endsWith('ctx_search')) ?? 'ctx_search_not_offered';
      const done = responses(req);
      if (done === 0)
        return { type: 'function_calls', calls: [{ name: searchTool, args: { query: 'ledger service' } }] };
      if (done === 1)
        return {
          type: 'function_calls',
          calls: [
            { name: 'run_shell_command', args: { command: 'node settle-missing.js', description: 'settle' } },
          ],
        };
      return { type: 'text', text: ANSWER };
    });
    home = tempDir('agentctx-gemini-');
    repo = fakeRepo(home.path, 'shop', 'git@github.com:acme/shop.git');
    env = geminiEnv(home.path, api.url);
    settingsBefore = readFileSync(writeGeminiSettings(home.path), 'utf8');
    const init = runAgentctx(['init', '--agent', 'gemini'], { cwd: repo, env });
    expect(init.code, init.stderr).toBe(0);
    const rec = runAgentctx(
      [
        'record',
        '--type',
        'decision',
        '--title',
        DECISION,
        '--body',
        'All payment writes call the ledger service.',
      ],
      { cwd: repo, env },
    );
    expect(rec.code, rec.stderr).toBe(0);
    const cons = runAgentctx(['consolidate'], { cwd: repo, env, timeoutMs: 60_000 });
    expect(cons.code, cons.stderr).toBe(0);
    const conv = runAgentctx(
      [
        'record',
        '--type',
        'convention',
        '--title',
        CONVENTION,
        '--body',
        'Every settlement script sits in scripts/settle/.',
      ],
      { cwd: repo, env },
    );
    expect(conv.code, conv.stderr).toBe(0);
    run = await runGemini({ cwd: repo, env, prompt: PROMPT });
  }, 900_000);

  afterAll(async () => {
    await api?.close();
    home?.cleanup();
  });

  it('init registered the hooks and a trusted MCP server beside the user’s settings; the turn ran', () => {
    const s = readJson(join(home.path, '.gemini', 'settings.json'));
    expect(Object.keys(s.hooks as object)).toEqual(
      expect.arrayContaining(['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'SessionEnd']),
    );
    expect((s.mcpServers as Record<string, Record<string, unknown>>).agentctx?.trust).toBe(true);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger service');
  });

  it('the digest and the prompt’s matching record reach the first model request', () => {
    const first = turns(api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    const texts = requestTexts(first).join('\n');
    expect(texts).toContain(DECISION);
    const hook = [...texts.matchAll(/<hook_context>([\s\S]*?)<\/hook_context>/g)].map((m) => m[1]).join('\n');
    expect(hook, texts.slice(-2000)).toContain(CONVENTION);
  });

  it('ctx_search answers through Gemini’s MCP client', () => {
    expect(searchTool).toBe('mcp_agentctx_ctx_search');
    const second = turns(api)[1]!;
    expect(requestTexts(second).join('\n')).toContain(DECISION);
  });

  it('the failing command is captured and AfterAgent leaves a handover read from Gemini’s chat file', async () => {
    const db = resolvePaths(env as Record<string, string>).db;
    const rows = await waitFor(
      () => {
        if (!existsSync(db)) return false;
        const d = openDb(db);
        try {
          const r = d.prepare('SELECT type, title, body, agent FROM records ORDER BY recorded_at').all() as {
            type: string;
            title: string;
            body: string;
            agent: string;
          }[];
          return r.some((x) => x.type === 'handover') ? r : false;
        } finally {
          d.close();
        }
      },
      { timeoutMs: 60_000, what: 'the handover extracted after AfterAgent' },
    );
    expect(rows.find((r) => r.type === 'bugfix')?.body).toContain('node settle-missing.js');
    const handover = rows.find((r) => r.type === 'handover')!;
    // provenance: both were written for gemini's session, and say so
    expect(rows.find((r) => r.type === 'bugfix')?.agent).toBe('gemini');
    expect(handover.agent).toBe('gemini');
    expect(`${handover.title}\n${handover.body}`).toMatch(/ledger service|settle/);
  }, 90_000);

  it('uninstall gives the settings file back byte for byte', () => {
    const r = runAgentctx(['uninstall', '--agent', 'gemini'], { cwd: repo, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(home.path, '.gemini', 'settings.json'), 'utf8')).toBe(settingsBefore);
  });
});
