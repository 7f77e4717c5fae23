import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAgentctx } from '../../support/cli.js';
import { type HookWorld, hookWorld, runHook, runHookAsync } from './helpers.js';

/**
 * `agentctx hook <event> --agent <name>` as a child process, fed the payloads each agent sends:
 * as measured for Qwen Code, Gemini CLI, OpenCode's plugin and Copilot CLI (1.0.102), as
 * documented for Cursor (which cannot run here). Then any payload at all: a hook exits 0 and prints
 * nothing or that agent's output, under its cap.
 */

let w: HookWorld;
beforeAll(() => {
  w = hookWorld('git@github.com:acme/agents.git', 'agents');
  w.add({
    title: 'Payments go through the ledger service',
    body: 'All payment writes call the ledger service.',
  });
  w.add({
    type: 'convention',
    title: 'Settlement scripts live in scripts/settle',
    body: 'Every settlement script sits in scripts/settle/ and runs with node.',
  });
  w.closeDb();
  const c = runAgentctx(['consolidate'], { cwd: w.repo, env: w.env, timeoutMs: 60_000 });
  expect(c.code, c.stderr).toBe(0);
}, 90_000);
afterAll(() => w.cleanup());

function bugfixBodies(): string[] {
  const rows = w.db().prepare("SELECT body FROM records WHERE type = 'bugfix'").all() as { body: string }[];
  w.closeDb();
  return rows.map((r) => r.body);
}

describe('Cursor (documented payloads)', () => {
  const common = {
    conversation_id: 'conv-7f3a',
    generation_id: 'gen-1',
    model: 'claude-4-sonnet',
    cursor_version: '2.0.77',
    workspace_roots: [] as string[],
  };

  it('sessionStart returns additional_context with the digest', () => {
    const r = runHook(
      w,
      'session-start',
      {
        ...common,
        workspace_roots: [w.repo],
        hook_event_name: 'sessionStart',
        session_id: 'conv-7f3a',
        is_background_agent: false,
        composer_mode: 'agent',
      },
      { args: ['--agent', 'cursor'] },
    );
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { additional_context: string };
    expect(out.additional_context).toContain('ledger service');
  });

  it('a prompt gets nothing: Cursor cannot inject per prompt', () => {
    const r = runHook(
      w,
      'user-prompt-submit',
      {
        ...common,
        workspace_roots: [w.repo],
        hook_event_name: 'beforeSubmitPrompt',
        prompt: 'where do settlement scripts live?',
        attachments: [],
      },
      { args: ['--agent', 'cursor'] },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('afterShellExecution with a failing command is captured', () => {
    const r = runHook(
      w,
      'post-tool-use',
      {
        ...common,
        workspace_roots: [w.repo],
        hook_event_name: 'afterShellExecution',
        command: 'node scripts/settle/run-cursor.js',
        output:
          "node:internal/modules/cjs/loader:1228\n  throw err;\n\nError: Cannot find module '/r/scripts/settle/run-cursor.js'",
        duration: 140,
      },
      { args: ['--agent', 'cursor'] },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(bugfixBodies().some((b) => b.includes('node scripts/settle/run-cursor.js'))).toBe(true);
  });
});

describe('Copilot CLI (payloads as 1.0.102 sends them)', () => {
  const base = { sessionId: 'b7d0c1e2-copilot', cwd: '' };
  it('sessionStart and userPromptSubmitted return additionalContext, deduplicated by the session id', () => {
    const start = runHook(
      w,
      'session-start',
      {
        ...base,
        cwd: w.repo,
        timestamp: 1796443732821,
        source: 'new',
        initialPrompt: 'where do payments and settlement scripts go?',
      },
      { args: ['--agent', 'copilot'] },
    );
    expect(start.code).toBe(0);
    expect((JSON.parse(start.stdout) as { additionalContext: string }).additionalContext).toContain(
      'ledger service',
    );
    const ask = (sessionId: string) =>
      runHook(
        w,
        'user-prompt-submit',
        {
          sessionId,
          cwd: w.repo,
          timestamp: 1796443733228,
          prompt: 'where do the settlement scripts live?',
        },
        { args: ['--agent', 'copilot'] },
      );
    // another session, which was not shown the digest: the matching record arrives
    const other = ask('another-session');
    expect(other.code).toBe(0);
    expect((JSON.parse(other.stdout) as { additionalContext: string }).additionalContext).toContain(
      'Settlement scripts live in scripts/settle',
    );
    // the session whose digest already held it: not injected again
    const same = ask(base.sessionId);
    expect(same.code).toBe(0);
    expect(same.stdout).not.toContain('Settlement scripts live in scripts/settle');
  });

  it('postToolUse with a bash call that exited non-zero is captured', () => {
    const r = runHook(
      w,
      'post-tool-use',
      {
        ...base,
        cwd: w.repo,
        timestamp: 1796443733615,
        toolName: 'bash',
        toolArgs: { command: 'node scripts/settle/run-copilot.js', description: 'settle' },
        toolResult: {
          resultType: 'success',
          textResultForLlm:
            "Error: Cannot find module '/r/scripts/settle/run-copilot.js'\n<shellId: 0 completed with exit code 1>",
        },
      },
      { args: ['--agent', 'copilot'] },
    );
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(bugfixBodies().some((b) => b.includes('node scripts/settle/run-copilot.js'))).toBe(true);
  });
});

/** Each agent's output read back: the context it would get, or a thrown error if malformed. */
const CONTEXT: Record<string, (v: Record<string, unknown>) => unknown> = {
  qwen: (v) => (v.hookSpecificOutput as Record<string, unknown>).additionalContext,
  gemini: (v) => (v.hookSpecificOutput as Record<string, unknown>).additionalContext,
  opencode: (v) => (v.hookSpecificOutput as Record<string, unknown>).additionalContext,
  cursor: (v) => v.additional_context,
  copilot: (v) => v.additionalContext,
};

/** Payload fields each agent sends, filled with anything at all. */
const FIELDS = [
  'session_id',
  'conversation_id',
  'transcript_path',
  'cwd',
  'hook_event_name',
  'prompt',
  'tool_name',
  'tool_input',
  'tool_response',
  'error',
  'workspace_roots',
  'command',
  'output',
  'file_path',
  'toolName',
  'toolArgs',
  'toolResult',
  'sessionId',
  'transcriptPath',
  'source',
  'stop_hook_active',
  'prompt_response',
  'timestamp',
];
const anyValue = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom('ledger service payments', 'run_shell_command', 'bash', 'afterShellExecution', '/', '..'),
  fc.integer(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 10 }), { maxLength: 3 }),
  fc.dictionary(
    fc.constantFrom('command', 'file_path', 'llmContent', 'output'),
    fc.string({ maxLength: 40 }),
  ),
);
const payload = fc.oneof(
  { weight: 4, arbitrary: fc.dictionary(fc.constantFrom(...FIELDS), anyValue).map((o) => JSON.stringify(o)) },
  { weight: 1, arbitrary: fc.oneof(fc.string({ maxLength: 80 }), fc.json(), fc.constant('')) },
);

describe('any payload, every new agent', () => {
  it('exits 0 and prints nothing or one object of that agent’s shape under its cap', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('qwen', 'gemini', 'opencode', 'cursor', 'copilot'),
        fc.constantFrom('session-start', 'user-prompt-submit', 'post-tool-use', 'stop', 'session-end'),
        payload,
        async (agent, event, input) => {
          const r = await runHookAsync(w, event, input, ['--agent', agent]);
          expect(r.code).toBe(0);
          if (r.stdout === '') return;
          const v = JSON.parse(r.stdout) as Record<string, unknown>;
          const ctx = CONTEXT[agent]!(v);
          expect(typeof ctx).toBe('string');
          expect((ctx as string).length).toBeLessThanOrEqual(10_000);
        },
      ),
      { numRuns: 100 },
    );
  }, 240_000);
});
