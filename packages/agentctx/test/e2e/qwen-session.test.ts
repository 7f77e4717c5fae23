import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDb } from '../../src/database/open.js';
import * as s from '../support/agent-session.js';
import { type FakeChatApi, messageTexts, startFakeChatApi, toolNames } from '../support/fake-chat-api.js';
import { qwenClient, qwenEnv, readJson, runQwen, writeQwenSettings } from '../support/qwen.js';

/**
 * agentctx inside the real Qwen Code CLI (0.24.4, installed on demand), offline against a fake
 * chat-completions API: `agentctx init --agent qwen`, then one `qwen -p` session. The digest
 * must reach the system message, a prompt's matching record the user message, `ctx_search`
 * must answer through Qwen's MCP client, a failing command must be captured, and Stop must
 * leave a handover extracted from Qwen's own chat file.
 */

describe('agentctx inside a real qwen -p session', () => {
  const w = s.agentSessionSuite<FakeChatApi>({
    agent: 'qwen',
    install: qwenClient,
    startApi: () =>
      startFakeChatApi(
        s.chatSessionScript({ search: 'mcp__agentctx__ctx_search', shell: 'run_shell_command' }, (req) => {
          // the answer cites the record ctx_search returned, by id (usage evidence: "its id written")
          const id = /\\?"id\\?":\\?"([0-9A-Z]{26})/.exec(JSON.stringify(req.body.messages))?.[1] ?? '';
          return `${s.SESSION.answer} (see ${id})`;
        }),
      ),
    env: qwenEnv,
    settings: (home) => writeQwenSettings(home),
    run: (cwd, env) => runQwen({ cwd, env, prompt: s.SESSION.prompt }),
  });

  it('init registered the hooks and a trusted MCP server beside the user’s settings', () => {
    const settings = readJson(join(w.home.path, '.qwen', 'settings.json'));
    expect((settings.memory as Record<string, unknown>).enableManagedAutoMemory).toBe(false);
    expect(Object.keys(settings.hooks as object)).toEqual(
      expect.arrayContaining(['SessionStart', 'UserPromptSubmit', 'PostToolUseFailure', 'Stop']),
    );
    expect((settings.mcpServers as Record<string, Record<string, unknown>>).agentctx?.trust).toBe(true);
    expect(w.run.code, w.run.stderr).toBe(0);
    expect(w.run.stdout).toContain('ledger service');
  });

  it('the digest reaches the system message and the matching record the user message', () => {
    const first = s.chatTurns(w.api)[0]!;
    expect(first, 'no model request with tools').toBeDefined();
    const system = messageTexts(first, 'system').join('\n');
    expect(system).toContain('<qwen:session-start-context');
    expect(system).toContain(s.SESSION.decision);
    const user = messageTexts(first, 'user').join('\n');
    const hookPart = /<qwen:user-prompt-submit-context>([\s\S]*?)<\/qwen:user-prompt-submit-context>/.exec(
      user,
    );
    expect(hookPart?.[1], user.slice(-2000)).toContain(s.SESSION.convention);
    // the digest's record is not injected a second time in the same session
    expect(hookPart?.[1]).not.toContain(s.SESSION.decision);
  });

  it('ctx_search answers through Qwen’s MCP client', () => {
    expect(toolNames(s.chatTurns(w.api)[0]!)).toContain('mcp__agentctx__ctx_search');
    expect(messageTexts(s.chatTurns(w.api)[1]!, 'tool').join('\n')).toContain(s.SESSION.decision);
  });

  it('the failing command is captured and Stop leaves a handover read from Qwen’s chat file', async () => {
    const db = await s.expectCaptureAndHandover(w.env, 'qwen', 'Stop');
    // usage evidence is read from Qwen's chat file: the decision ctx_search returned and the
    // answer cited by id is judged used, not "unused" for want of a reader
    const d = openDb(db);
    try {
      const verdicts = d
        .prepare(
          `SELECT r.title AS title, s.verdict AS verdict FROM session_shown s JOIN records r ON r.id = s.record_id`,
        )
        .all() as { title: string; verdict: string | null }[];
      expect(verdicts.find((v) => v.title === s.SESSION.decision)?.verdict, JSON.stringify(verdicts)).toBe(
        'used',
      );
    } finally {
      d.close();
    }
  }, 90_000);

  it('uninstall gives the settings file back byte for byte', () => {
    s.expectUninstallRestores('qwen', w);
  });
});
