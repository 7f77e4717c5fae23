import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copilotAdapter } from '../../../../src/hooks/agents/copilot.js';
import { cursorAdapter } from '../../../../src/hooks/agents/cursor.js';
import { GEMINI_EVENT_NAMES, geminiAdapter } from '../../../../src/hooks/agents/gemini.js';
import { opencodeAdapter } from '../../../../src/hooks/agents/opencode.js';
import { qwenAdapter } from '../../../../src/hooks/agents/qwen.js';
import { HOOK_NAMES } from '../../../../src/hooks/event.js';

/** The adapters beyond Claude Code and Codex: each agent's output shape, under its cap. */

const wideText = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.constantFrom('台北的账本服务'.repeat(60), '🧾'.repeat(700), 'x'.repeat(12_000)),
    ),
    { maxLength: 40 },
  )
  .map((lines) => lines.join('\n'));

type Out = Record<string, unknown>;
const field = (v: unknown, ...keys: string[]): unknown =>
  keys.reduce<unknown>((o, k) => (typeof o === 'object' && o !== null ? (o as Out)[k] : undefined), v);

/** What each agent reads back: the context text from its output object. */
const CONTEXT_OF: Record<string, (v: Out) => unknown> = {
  qwen: (v) => field(v, 'hookSpecificOutput', 'additionalContext'),
  gemini: (v) => field(v, 'hookSpecificOutput', 'additionalContext'),
  opencode: (v) => field(v, 'hookSpecificOutput', 'additionalContext'),
  cursor: (v) => field(v, 'additional_context'),
  copilot: (v) => field(v, 'additionalContext'),
};

describe('each adapter keeps its cap by construction and prints its own shape', () => {
  for (const adapter of [qwenAdapter, geminiAdapter, opencodeAdapter, cursorAdapter, copilotAdapter]) {
    it(`${adapter.agent}: nothing, or one object whose context is a prefix of ours within ${adapter.cap.limit} ${adapter.cap.unit}`, () => {
      fc.assert(
        fc.property(fc.constantFrom(...HOOK_NAMES), wideText, (name, text) => {
          const out = adapter.render(name, { additionalContext: text });
          if (out === '') return;
          const ctx = CONTEXT_OF[adapter.agent]!(JSON.parse(out) as Out) as string;
          expect(typeof ctx).toBe('string');
          expect(ctx.length).toBeGreaterThan(0);
          expect(adapter.cap.measure(ctx)).toBeLessThanOrEqual(adapter.cap.limit);
          expect(text.startsWith(ctx)).toBe(true);
        }),
        { numRuns: 150 },
      );
      expect(adapter.render('stop', null)).toBe('');
    });
  }

  it('Gemini names its own events; Cursor injects at session start only; Copilot at start and per prompt', () => {
    const ctx = { additionalContext: 'ledger' };
    expect(JSON.parse(geminiAdapter.render('user-prompt-submit', ctx)).hookSpecificOutput.hookEventName).toBe(
      GEMINI_EVENT_NAMES['user-prompt-submit'],
    );
    expect(GEMINI_EVENT_NAMES['user-prompt-submit']).toBe('BeforeAgent');
    expect(cursorAdapter.render('session-start', ctx)).toBe('{"additional_context":"ledger"}');
    expect(cursorAdapter.render('user-prompt-submit', ctx)).toBe('');
    expect(copilotAdapter.render('user-prompt-submit', ctx)).toBe('{"additionalContext":"ledger"}');
  });
});

describe('payloads into the one typed event', () => {
  it("Qwen: its own session variable, never Claude Code's; a failing shell call keeps its error text", () => {
    const env = { QWEN_CODE_SESSION_ID: 'qwen-s', CLAUDE_CODE_SESSION_ID: 'claude-s' };
    expect(qwenAdapter.toEvent('stop', {}, env, '/p').sessionId).toBe('qwen-s');
    const ev = qwenAdapter.toEvent(
      'post-tool-use',
      {
        hook_event_name: 'PostToolUseFailure',
        tool_name: 'run_shell_command',
        tool_input: { command: 'node x.js' },
        error: 'Command: node x.js\nOutput: Error: Cannot find module',
      },
      {},
      '/p',
    );
    expect(ev).toMatchObject({ toolName: 'Bash', toolInput: { command: 'node x.js' } });
    expect(ev.kind === 'post-tool-use' && ev.error).toContain('Cannot find module');
  });

  it('Gemini: the SessionStart context it prepends to the prompt is not part of the prompt', () => {
    const ev = geminiAdapter.toEvent(
      'user-prompt-submit',
      { prompt: '<hook_context>digest text</hook_context>\n\nhow do payments work?' },
      { GEMINI_SESSION_ID: 'g1' },
      '/p',
    );
    expect(ev).toMatchObject({ sessionId: 'g1', prompt: 'how do payments work?' });
    const tool = geminiAdapter.toEvent(
      'post-tool-use',
      { tool_name: 'replace', tool_input: { file_path: '/r/a.ts', old_string: 'a', new_string: 'b' } },
      {},
      '/p',
    );
    expect(tool).toMatchObject({ toolName: 'Edit', toolInput: { file_path: '/r/a.ts' } });
  });

  it('Cursor: conversation id and workspace root; a shell execution as Bash; Stop leaves the transcript alone', () => {
    const ev = cursorAdapter.toEvent(
      'post-tool-use',
      {
        conversation_id: 'conv-1',
        generation_id: 'gen-1',
        hook_event_name: 'afterShellExecution',
        workspace_roots: ['/home/dev/repo'],
        command: 'npm test',
        output: 'Error: x',
        duration: 120,
      },
      {},
      '/p',
    );
    expect(ev).toMatchObject({
      sessionId: 'conv-1',
      cwd: '/home/dev/repo',
      toolName: 'Bash',
      toolInput: { command: 'npm test' },
    });
    const stop = cursorAdapter.toEvent(
      'stop',
      { conversation_id: 'c', transcript_path: '/t.txt', status: 'completed' },
      {},
      '/p',
    );
    expect(stop.transcriptPath).toBe('');
  });

  it('Copilot CLI (1.0.102 payloads): the session id, agentStop’s transcript, a shell call as Bash', () => {
    const base = { sessionId: '9c9988dc-ff3c', timestamp: 1796443733615, cwd: '/r' };
    expect(copilotAdapter.toEvent('session-start', { ...base, source: 'new' }, {}, '/p')).toMatchObject({
      sessionId: '9c9988dc-ff3c',
      cwd: '/r',
      source: 'startup',
    });
    expect(
      copilotAdapter.toEvent(
        'stop',
        {
          ...base,
          transcriptPath: '/h/.copilot/session-state/9c9988dc-ff3c/events.jsonl',
          stopReason: 'end_turn',
          stop_hook_active: false,
        },
        {},
        '/p',
      ),
    ).toMatchObject({
      kind: 'stop',
      sessionId: '9c9988dc-ff3c',
      transcriptPath: '/h/.copilot/session-state/9c9988dc-ff3c/events.jsonl',
      stopHookActive: false,
    });
    // a subagent's agentStop names the parent's transcript under the subagent's id: no extraction
    expect(
      copilotAdapter.toEvent(
        'stop',
        {
          ...base,
          sessionId: '659b61af',
          transcriptPath: '/h/.copilot/session-state/9c9988dc-ff3c/events.jsonl',
          agentId: '659b61af',
          agentType: 'explore',
          parentAgentId: '9c9988dc-ff3c',
        },
        {},
        '/p',
      ),
    ).toMatchObject({ kind: 'stop', sessionId: '659b61af', transcriptPath: '' });
    // a non-zero exit is a "success" whose text ends with the exit code: the text is the output
    const text = "Error: Cannot find module '/r/x.js'\n<shellId: 0 completed with exit code 1>";
    const ev = copilotAdapter.toEvent(
      'post-tool-use',
      {
        ...base,
        toolName: 'bash',
        toolArgs: { command: 'node x.js', description: 'run' },
        toolResult: { resultType: 'success', textResultForLlm: text },
      },
      {},
      '/p',
    );
    expect(ev).toMatchObject({
      sessionId: '9c9988dc-ff3c',
      toolName: 'Bash',
      toolInput: { command: 'node x.js' },
      toolResponse: { output: text },
    });
    // postToolUseFailure: `error`, no result; toolArgs as a JSON string are read too
    const failed = copilotAdapter.toEvent(
      'post-tool-use',
      { ...base, toolName: 'bash', toolArgs: '{"command":"npm test"}', error: 'Error: 2 failed' },
      {},
      '/p',
    );
    expect(failed).toMatchObject({ toolName: 'Bash', toolInput: { command: 'npm test' } });
    expect(failed.kind === 'post-tool-use' && failed.error).toBe('Error: 2 failed');
  });
});
