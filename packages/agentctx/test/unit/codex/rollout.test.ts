import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseRolloutText } from '../../../src/codex/rollout.js';
import { buildRuleHandover } from '../../../src/core/extraction/rule-handover.js';

/** Lines shaped as Codex 0.169 writes them (measured), the conversation in response_item lines. */
const line = (type: string, payload: Record<string, unknown>, at = '2026-12-05T01:24:12.806Z') =>
  JSON.stringify({ timestamp: at, ordinal: 0, type, payload });
const msg = (role: string, text: string) =>
  line('response_item', {
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
  });

const ROLLOUT = [
  line('session_meta', { id: 's1', cwd: '/repo', originator: 'codex_exec', cli_version: '0.169.0' }),
  line('event_msg', { type: 'task_started', turn_id: 't1' }),
  msg('developer', '<skills_instructions>…</skills_instructions>'),
  msg('user', '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'),
  msg('developer', 'agentctx: project context … (hook context)'),
  msg('user', 'Make the ledger retries back off'),
  line('response_item', {
    type: 'function_call',
    name: 'exec_command',
    arguments: JSON.stringify({ cmd: 'npm test', workdir: '/repo' }),
    call_id: 'c1',
  }),
  line('response_item', {
    type: 'function_call_output',
    call_id: 'c1',
    output:
      'Chunk ID: 1\nWall time: 0.1 seconds\nProcess exited with code 1\nOutput:\nFAIL src/ledger.test.ts\nTests: 1 failed',
  }),
  line('response_item', {
    type: 'custom_tool_call',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** Update File: src/ledger.ts\n@@\n-a\n+b\n*** End Patch',
    call_id: 'c2',
  }),
  line('response_item', { type: 'custom_tool_call_output', call_id: 'c2', output: 'Success.' }),
  line('response_item', {
    type: 'function_call',
    namespace: 'mcp__agentctx',
    name: 'ctx_search',
    arguments: '{"query":"ledger"}',
    call_id: 'c3',
  }),
  msg('assistant', 'Retries now back off exponentially.'),
  line('event_msg', { type: 'task_complete', last_agent_message: 'Retries now back off exponentially.' }),
].join('\n');

describe("Codex's rollout into the neutral event list", () => {
  it("keeps the developer's words, the calls and their outcome, and the assistant's answer", () => {
    const { events, garbage } = parseRolloutText(ROLLOUT);
    expect(garbage).toBe(0);
    expect(events.map((e) => e.kind)).toEqual([
      'user',
      'tool_use',
      'tool_result',
      'tool_use',
      'tool_result',
      'tool_use',
      'assistant',
    ]);
    expect(events[0]).toMatchObject({ kind: 'user', text: 'Make the ledger retries back off' });
    expect(events[1]).toMatchObject({ kind: 'tool_use', name: 'Bash', summary: 'npm test', id: 'c1' });
    expect(events[2]).toMatchObject({ kind: 'tool_result', toolUseId: 'c1', isError: true });
    expect(events[3]).toMatchObject({ kind: 'tool_use', name: 'Edit', files: ['src/ledger.ts'] });
    expect(events[5]).toMatchObject({ name: 'mcp__agentctx__ctx_search' });
  });

  it('gives the rule-built handover the request, the failing test run, the edited file and the last words', () => {
    const h = buildRuleHandover(parseRolloutText(ROLLOUT).events, '/repo');
    expect(h?.body).toContain('Make the ledger retries back off');
    expect(h?.body).toContain('`npm test` → FAILED');
    expect(h?.files).toEqual(['src/ledger.ts']);
    expect(h?.body).toContain('Retries now back off exponentially.');
  });

  it('never throws on junk lines, counts them, and reads what it can', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string(), fc.json(), fc.constant(msg('user', 'hello there')))),
        (lines) => {
          const r = parseRolloutText(lines.join('\n'));
          expect(r.garbage).toBeGreaterThanOrEqual(0);
          for (const e of r.events) expect(typeof e.kind).toBe('string');
        },
      ),
      { numRuns: 300 },
    );
  });
});
