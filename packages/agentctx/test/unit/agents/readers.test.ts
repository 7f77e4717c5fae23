import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { copilotEventsReader, parseCopilotEventsText } from '../../../src/agents/copilot-events.js';
import { geminiChatReader, parseGeminiChatText } from '../../../src/agents/gemini-chat.js';
import { opencodeMessagesReader, parseOpencodeText } from '../../../src/agents/opencode-messages.js';
import { parseQwenChatText, qwenChatReader } from '../../../src/agents/qwen-chat.js';
import { buildRuleHandover } from '../../../src/core/extraction/rule-handover.js';
import { PACKAGE_ROOT } from '../../support/cli.js';

/**
 * Each agent's transcript into the neutral events: chat files written by the real clients
 * (Qwen Code 0.24.4, Gemini CLI 0.61.0, one session each: a prompt, a failing shell command,
 * an answer; paths renamed), Copilot CLI 1.0.102's events.jsonl (a prompt, agentctx's
 * ctx_search over MCP, a failing shell command, an answer; the system prompt cut, paths
 * renamed), and OpenCode messages in the shape its API returns.
 */

const FIXTURES = join(PACKAGE_ROOT, 'test', 'fixtures', 'agents');

describe('Qwen Code chat records', () => {
  const read = qwenChatReader.read(join(FIXTURES, 'qwen-0.24.4-chat.jsonl'), 0);

  it('the prompt without the hook context Qwen stored with it, and the shell call as Bash with its failure', () => {
    const users = read.events.filter((e) => e.kind === 'user');
    expect(users.map((e) => (e as { text: string }).text)).toEqual(['please list the nonexistent dir']);
    const call = read.events.find((e) => e.kind === 'tool_use');
    expect(call).toMatchObject({ name: 'Bash', summary: 'ls /nonexistent-dir-xyz' });
    const result = read.events.find((e) => e.kind === 'tool_result');
    expect(result).toMatchObject({ isError: true });
    expect(read.garbage).toBe(0);
  });

  it('a file write is an edit of that file; thoughts and system records are not events', () => {
    const lines = [
      { type: 'system', subtype: 'ui_telemetry', systemPayload: {} },
      {
        type: 'assistant',
        timestamp: '2026-12-05T01:00:00Z',
        message: {
          role: 'model',
          parts: [
            { text: 'thinking hard', thought: true },
            { text: 'Writing the notes.' },
            {
              functionCall: {
                id: 'c1',
                name: 'write_file',
                args: { file_path: '/r/notes.md', content: 'x' },
              },
            },
          ],
        },
      },
    ];
    const r = parseQwenChatText(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(r.events).toEqual([
      { kind: 'assistant', text: 'Writing the notes.', at: '2026-12-05T01:00:00Z' },
      {
        kind: 'tool_use',
        id: 'c1',
        name: 'Write',
        summary: '/r/notes.md',
        files: ['/r/notes.md'],
        at: '2026-12-05T01:00:00Z',
      },
    ]);
  });
});

describe('Gemini CLI chat records', () => {
  const path = join(FIXTURES, 'gemini-0.61.0-chat.jsonl');

  it('one copy per message id (the last), the session context and hook context dropped', () => {
    const r = geminiChatReader.read(path, 0);
    const kinds = r.events.map((e) => e.kind);
    expect(kinds).toEqual(['user', 'tool_use', 'tool_result', 'assistant']);
    expect(r.events[0]).toMatchObject({ text: 'please list the nonexistent dir' });
    expect(r.events[1]).toMatchObject({ name: 'Bash', summary: 'ls /nonexistent-dir-xyz' });
    expect(r.events[2]).toMatchObject({ isError: true });
    expect(r.events[3]).toMatchObject({ text: 'Done: the command failed as expected.' });
    expect(geminiChatReader.firstTimestamp(path)).toMatch(/^2026-12-05T/);
  });

  it('the rule-built handover reads the session', () => {
    const h = buildRuleHandover(geminiChatReader.read(path, 0).events, '/home/dev/proj', (s) => s);
    expect(h).not.toBeNull();
  });
});

describe('OpenCode messages', () => {
  const user = {
    info: { id: 'msg_1', role: 'user', time: { created: 1796436186146 } },
    parts: [
      { id: 'prt_1', type: 'text', text: 'fix the settlement script' },
      { id: 'prt_1x', type: 'text', text: 'agentctx: project context …', synthetic: true },
    ],
  };
  const assistant = {
    info: { id: 'msg_2', role: 'assistant', time: { created: 1796436188955 } },
    parts: [
      { type: 'step-start' },
      {
        type: 'tool',
        tool: 'bash',
        callID: 'call_1',
        state: {
          status: 'completed',
          input: { command: 'node settle.js' },
          output: 'Error: boom',
          metadata: { exit: 1 },
        },
      },
      {
        type: 'tool',
        tool: 'edit',
        callID: 'call_2',
        state: { status: 'completed', input: { filePath: '/r/settle.js' }, output: '' },
      },
      { type: 'text', text: 'Fixed.' },
    ],
  };

  it('the typed prompt only, tools in the engine’s terms, a non-zero exit as a failure', () => {
    const r = parseOpencodeText(`${JSON.stringify(user)}\n${JSON.stringify(assistant)}\n`);
    expect(r.events.map((e) => e.kind)).toEqual([
      'user',
      'assistant',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
    ]);
    expect(r.events[0]).toMatchObject({ text: 'fix the settlement script' });
    expect(r.events[2]).toMatchObject({ name: 'Bash', summary: 'node settle.js' });
    expect(r.events[3]).toMatchObject({ isError: true });
    expect(r.events[4]).toMatchObject({ name: 'Edit', files: ['/r/settle.js'] });
  });
});

describe('OpenCode export', () => {
  it('the file `opencode export <id>` prints (1.18.33) reads as the same messages', () => {
    const r = opencodeMessagesReader.read(join(FIXTURES, 'opencode-1.18.33-export.json'), 0);
    expect(r.events.map((e) => e.kind)).toEqual(['user', 'assistant']);
    // the typed prompt, not the part agentctx's plugin (here: a probe) added
    expect(r.events[0]).toMatchObject({ text: '"hello there"' });
    expect(r.events[1]).toMatchObject({ text: 'ok' });
  });
});

describe('Copilot CLI events.jsonl', () => {
  const read = copilotEventsReader.read(join(FIXTURES, 'copilot-1.0.102-events.jsonl'), 0);

  it('the typed prompt without the hooks’ reminder; the MCP search and the failing shell call with their results', () => {
    expect(read.garbage).toBe(0);
    expect(read.events.map((e) => e.kind)).toEqual([
      'user',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'assistant',
    ]);
    expect(read.events[0]).toMatchObject({
      text: 'How do payment writes reach the ledger service? Check the settlement script too.',
    });
    expect(read.events[1]).toMatchObject({
      id: 'call1',
      name: 'agentctx-ctx_search',
      summary: 'ledger service',
    });
    expect(read.events[2]).toMatchObject({ toolUseId: 'call1', isError: false });
    expect((read.events[2] as { summary: string }).summary).toContain('01M926958KD6THJJ2P6PTHBRZ5');
    expect(read.events[3]).toMatchObject({ id: 'call2', name: 'Bash', summary: 'node settle-missing.js' });
    // Copilot records the command as a success; its exit code (1) makes it a failure here
    expect(read.events[4]).toMatchObject({ toolUseId: 'call2', isError: true });
    expect(read.events[5]).toMatchObject({
      kind: 'assistant',
      text: expect.stringContaining('ledger service'),
    });
  });

  it('file writes are edits of their files; injected prompts, subagent work and compaction as Copilot logs them', () => {
    const lines = [
      { type: 'user.message', timestamp: 't1', data: { content: 'skill text', source: 'skill-pdf' } },
      {
        type: 'tool.execution_start',
        data: { toolCallId: 'a', toolName: 'create', arguments: { path: '/r/n.md' } },
      },
      {
        type: 'tool.execution_start',
        data: { toolCallId: 'b', toolName: 'edit', arguments: { path: '/r/m.ts' } },
      },
      {
        type: 'tool.execution_complete',
        data: { toolCallId: 'b', success: false, error: { message: 'no match' } },
      },
      { type: 'assistant.message', data: { content: 'child says', parentToolCallId: 'task1' } },
      {
        type: 'session.compaction_complete',
        timestamp: 't2',
        data: { success: true, summaryContent: 'so far' },
      },
    ];
    const r = parseCopilotEventsText(lines.map((l) => JSON.stringify(l)).join('\n'));
    expect(r.events).toEqual([
      { kind: 'tool_use', id: 'a', name: 'Write', summary: '/r/n.md', files: ['/r/n.md'], at: undefined },
      { kind: 'tool_use', id: 'b', name: 'Edit', summary: '/r/m.ts', files: ['/r/m.ts'], at: undefined },
      { kind: 'tool_result', toolUseId: 'b', summary: 'no match', isError: true, at: undefined },
      { kind: 'compact_summary', text: 'so far', at: 't2' },
    ]);
  });

  it('the rule-built handover reads the session: the last request and the last answer', () => {
    const h = buildRuleHandover(read.events, '/r/shop', (s) => s);
    expect(h?.body).toContain(
      'Last request from the developer: How do payment writes reach the ledger service?',
    );
    expect(h?.body).toContain('the settlement script is missing');
    expect(copilotEventsReader.firstTimestamp(join(FIXTURES, 'copilot-1.0.102-events.jsonl'))).toMatch(
      /^2026-12-05T/,
    );
  });
});

describe('every reader takes any line without throwing', () => {
  it('garbage is counted, never fatal', () => {
    const line = fc.oneof(
      fc.json(),
      fc.string(),
      fc.constant('{"type":"user","message":{"parts":[{"functionCall":{}}]}}'),
      fc.constant('{"type":"tool.execution_complete","data":{"error":{},"shellExecution":null}}'),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 8 }), (lines) => {
        const text = lines.join('\n');
        for (const parse of [
          parseQwenChatText,
          parseGeminiChatText,
          parseOpencodeText,
          parseCopilotEventsText,
        ]) {
          const r = parse(text);
          expect(r.garbage).toBeLessThanOrEqual(lines.length);
          for (const e of r.events) expect(typeof e.kind).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
  });
});
