import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as s from '../support/agent-session.js';
import {
  declaredTools,
  type FakeGeminiApi,
  type GeminiReply,
  type RecordedGeminiRequest,
  requestTexts,
  startFakeGeminiApi,
} from '../support/fake-gemini-api.js';
import { geminiBin, geminiEnv, runGemini, writeGeminiSettings } from '../support/gemini.js';
import { readJson } from '../support/qwen.js';

/**
 * agentctx inside the real Gemini CLI (0.61.0, installed on demand), offline against a fake
 * Gemini API: `agentctx init --agent gemini`, then one `gemini -p` session. SessionStart's
 * digest and BeforeAgent's matching record must reach the model request, `ctx_search` must
 * answer through Gemini's MCP client, AfterTool must capture a failing command, and AfterAgent
 * must leave a handover extracted from Gemini's chat file.
 */

const turns = (api: FakeGeminiApi) => api.requests.filter((r) => declaredTools(r).length > 0);
const responses = (r: RecordedGeminiRequest) =>
  (Array.isArray(r.body.contents) ? (r.body.contents as { parts?: { functionResponse?: unknown }[] }[]) : [])
    .flatMap((c) => c.parts ?? [])
    .filter((p) => p.functionResponse).length;

describe('agentctx inside a real gemini -p session', () => {
  let searchTool = '';
  const w = s.agentSessionSuite<FakeGeminiApi>({
    agent: 'gemini',
    install: geminiBin,
    startApi: () =>
      startFakeGeminiApi((req) => {
        const tools = declaredTools(req);
        if (tools.length === 0) return { type: 'text', text: 'ok' };
        searchTool = tools.find((t) => t.endsWith('ctx_search')) ?? 'ctx_search_not_offered';
        return s.sessionMove<GeminiReply>(
          responses(req),
          () => ({ type: 'function_calls', calls: [{ name: searchTool, args: { query: s.SESSION.query } }] }),
          () => ({
            type: 'function_calls',
            calls: [
              { name: 'run_shell_command', args: { command: s.SESSION.command, description: 'settle' } },
            ],
          }),
          () => ({ type: 'text', text: s.SESSION.answer }),
        );
      }),
    env: geminiEnv,
    settings: (home) => writeGeminiSettings(home),
    run: (cwd, env) => runGemini({ cwd, env, prompt: s.SESSION.prompt }),
  });

  it('init registered the hooks and a trusted MCP server beside the user’s settings; the turn ran', () => {
    const settings = readJson(join(w.home.path, '.gemini', 'settings.json'));
    expect(Object.keys(settings.hooks as object)).toEqual(
      expect.arrayContaining(['SessionStart', 'BeforeAgent', 'AfterTool', 'AfterAgent', 'SessionEnd']),
    );
    expect((settings.mcpServers as Record<string, Record<string, unknown>>).agentctx?.trust).toBe(true);
    expect(w.run.code, w.run.stderr).toBe(0);
    expect(w.run.stdout).toContain('ledger service');
  });

  it('the digest and the prompt’s matching record reach the first model request', () => {
    const first = turns(w.api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    const texts = requestTexts(first).join('\n');
    expect(texts).toContain(s.SESSION.decision);
    const hook = [...texts.matchAll(/<hook_context>([\s\S]*?)<\/hook_context>/g)].map((m) => m[1]).join('\n');
    expect(hook, texts.slice(-2000)).toContain(s.SESSION.convention);
  });

  it('ctx_search answers through Gemini’s MCP client', () => {
    expect(searchTool).toBe('mcp_agentctx_ctx_search');
    expect(requestTexts(turns(w.api)[1]!).join('\n')).toContain(s.SESSION.decision);
  });

  it('the failing command is captured and AfterAgent leaves a handover read from Gemini’s chat file', async () => {
    await s.expectCaptureAndHandover(w.env, 'gemini', 'AfterAgent');
  }, 90_000);

  it('uninstall gives the settings file back byte for byte', () => {
    s.expectUninstallRestores('gemini', w);
  });
});
