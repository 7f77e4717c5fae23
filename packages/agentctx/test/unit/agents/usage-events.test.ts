import { describe, expect, it } from 'vitest';
import { usageEventsOf } from '../../../src/agents/usage-events.js';
import type { TranscriptEvent } from '../../../src/claude/transcript.js';

/** Other agents' transcripts as usage evidence: MCP calls by each agent's tool name, the rest as said and done. */

const ID = '01M91Z96TBT46H9ZF9SAJS9BVJ';

describe('usage events from another agent’s transcript events', () => {
  for (const name of [
    'mcp__agentctx__ctx_search',
    'mcp_agentctx_ctx_search',
    'agentctx_ctx_search',
    'agentctx-ctx_search',
  ]) {
    it(`${name}: a search and the ids its result named`, () => {
      const events: TranscriptEvent[] = [
        { kind: 'user', text: 'how do payments work?', at: '2026-12-05T01:00:00Z' },
        { kind: 'tool_use', id: 'c1', name, summary: 'ledger', files: [] },
        {
          kind: 'tool_result',
          toolUseId: 'c1',
          summary: `{"results":[{"id":"${ID}","type":"decision"`,
          isError: false,
        },
        { kind: 'tool_use', id: 'c2', name: 'Edit', summary: 'src/pay.ts', files: ['src/pay.ts'] },
        { kind: 'assistant', text: `Done, per ${ID}.` },
      ];
      expect(usageEventsOf(events)).toEqual([
        { kind: 'prompt', text: 'how do payments work?', at: '2026-12-05T01:00:00Z' },
        { kind: 'mcp', tool: 'ctx_search', asked: [], returned: [ID], at: null },
        { kind: 'did', tool: 'Edit', text: 'src/pay.ts', files: ['src/pay.ts'], at: null },
        { kind: 'said', text: `Done, per ${ID}.`, at: null },
      ]);
    });
  }

  it('ctx_get: the ids asked for', () => {
    const events: TranscriptEvent[] = [
      { kind: 'tool_use', id: 'g', name: 'agentctx_ctx_get', summary: `{"ids":["${ID}"]}`, files: [] },
      { kind: 'tool_result', toolUseId: 'g', summary: '(no output)', isError: false },
    ];
    expect(usageEventsOf(events)).toEqual([
      { kind: 'mcp', tool: 'ctx_get', asked: [ID], returned: [], at: null },
    ]);
  });
});
