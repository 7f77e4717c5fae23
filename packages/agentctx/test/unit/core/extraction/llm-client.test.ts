import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM_PROMPT } from '../../../../src/core/extraction/prompt.js';
import { parseExtractionOutput } from '../../../../src/core/extraction/schema.js';
import { RECORD_CONTEXT_TOOL } from '../../../../src/core/extraction/tool-schema.js';
import { createAnthropicClient } from '../../../../src/llm/anthropic.js';
import { LlmError } from '../../../../src/llm/client.js';
import { CACHE_READ_MULTIPLIER, CACHE_WRITE_MULTIPLIER, costOf } from '../../../../src/llm/pricing.js';
import { selectLlm } from '../../../../src/llm/select.js';
import { type FakeApi, startFakeApi } from '../../../support/fake-messages-api.js';

let api: FakeApi;
beforeAll(async () => {
  api = await startFakeApi();
});
afterAll(async () => {
  await api.close();
});

const tool = RECORD_CONTEXT_TOOL as unknown as {
  name: string;
  description: string;
  input_schema: Record<string, unknown>;
};

function client(extra: { timeoutMs?: number; model?: string } = {}) {
  return createAnthropicClient({
    apiKey: 'sk-test',
    baseURL: api.url,
    model: extra.model ?? 'claude-haiku-4-5',
    timeoutMs: extra.timeoutMs ?? 5000,
    maxRetries: 0,
  });
}

describe('Anthropic client (official SDK over HTTP)', () => {
  it('forces the tool, caches the system prompt, and prices the usage', async () => {
    api.requests.length = 0;
    api.setScript(() => ({
      content: [{ type: 'tool_use', name: 'record_context', input: { decisions: [], flush_ok: true } }],
      usage: {
        input_tokens: 2000,
        output_tokens: 300,
        cache_creation_input_tokens: 1500,
        cache_read_input_tokens: 0,
      },
    }));
    const r = await client({ model: 'claude-haiku-4-5-20251001' }).structured({
      system: SYSTEM_PROMPT,
      user: 'Developer: hi',
      tool,
    });
    expect(r.output).toEqual({ decisions: [], flush_ok: true });
    expect(r.costUsd).toBeCloseTo(2000e-6 + 300 * 5e-6 + 1500 * 1.25e-6, 12);
    const body = api.requests[0]!.body;
    expect(body.model).toBe('claude-haiku-4-5-20251001');
    expect(body.system).toEqual([
      { type: 'text', text: SYSTEM_PROMPT, cache_control: { type: 'ephemeral' } },
    ]);
    expect(body.tool_choice).toEqual({ type: 'tool', name: 'record_context' });
    expect((body.tools as unknown[])[0]).toEqual(JSON.parse(JSON.stringify(RECORD_CONTEXT_TOOL)));
    expect(body.messages).toEqual([{ role: 'user', content: 'Developer: hi' }]);
  });

  it('reads the JSON from a text block, and reports undefined for prose', async () => {
    api.setScript(() => ({ content: [{ type: 'text', text: 'Result: {"flush_ok": true}' }] }));
    expect((await client().structured({ system: 's', user: 'u', tool })).output).toEqual({ flush_ok: true });
    api.setScript(() => ({ content: [{ type: 'text', text: 'no json here' }] }));
    expect((await client().structured({ system: 's', user: 'u', tool })).output).toBeUndefined();
  });

  it('turns HTTP errors and timeouts into LlmError', async () => {
    api.setScript(() => ({ status: 503, content: [] }));
    const e = await client()
      .structured({ system: 's', user: 'u', tool })
      .catch((err: unknown) => err);
    expect(e).toBeInstanceOf(LlmError);
    expect((e as LlmError).status).toBe(503);
    api.setScript(() => ({ content: [{ type: 'text', text: '{}' }], delayMs: 1500 }));
    const t = await client({ timeoutMs: 200 })
      .structured({ system: 's', user: 'u', tool })
      .catch((err: unknown) => err);
    expect(t).toBeInstanceOf(LlmError);
    expect((t as Error).message).toMatch(/^timeout/);
  });
});

describe('pricing', () => {
  it('prices cache writes at 1.25× and cache reads at 0.1× the input price', () => {
    expect(CACHE_WRITE_MULTIPLIER).toBe(1.25);
    expect(CACHE_READ_MULTIPLIER).toBe(0.1);
    expect(
      costOf({
        input_tokens: 1e6,
        output_tokens: 0,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      }),
    ).toBeCloseTo(1, 12);
    expect(
      costOf({
        input_tokens: 0,
        output_tokens: 1e6,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 0,
      }),
    ).toBeCloseTo(5, 12);
    expect(
      costOf({
        input_tokens: 0,
        output_tokens: 0,
        cache_creation_input_tokens: 1e6,
        cache_read_input_tokens: 1e6,
      }),
    ).toBeCloseTo(1.35, 12);
  });
});

describe('backend selection', () => {
  const on = { enabled: true, backend: 'auto' as const, model: 'claude-haiku-4-5' };
  it('needs a key and an enabled backend', () => {
    expect(selectLlm(on, {}).reason).toBe('no ANTHROPIC_API_KEY');
    expect(selectLlm({ ...on, enabled: false }, { ANTHROPIC_API_KEY: 'k' }).reason).toBe(
      'llm disabled in config',
    );
    expect(selectLlm({ ...on, backend: 'off' }, { ANTHROPIC_API_KEY: 'k' }).reason).toBe(
      'llm disabled in config',
    );
    const ok = selectLlm({ ...on, model: 'claude-sonnet-4-5' }, { ANTHROPIC_API_KEY: 'k' });
    expect(ok.client?.name).toBe('anthropic-api');
    expect(ok.client?.model).toBe('claude-sonnet-4-5');
  });
});

describe('output validation', () => {
  it('keeps valid entries and counts the rest, section by section', () => {
    const p = parseExtractionOutput({
      decisions: [{ what: 'A', rationale: 'r', supersedes: null, confidence: 'explicit' }, { what: 'B' }],
      preferences: [{ category: 'tooling', rule: 'pnpm', confidence: 'inferred', scope: 'team' }],
      conventions: [],
      active_work: { current_task: 'x', blockers: ['  ', 'b'], next_steps: [], open_questions: [] },
      gotchas: [{ pattern: 'p' }],
      flush_ok: 'yes',
    });
    expect(p!.output.decisions).toHaveLength(1);
    expect(p!.output.gotchas).toEqual([{ pattern: 'p', why_it_matters: '' }]);
    expect(p!.output.active_work!.blockers).toEqual(['b']);
    expect(p!.output.flush_ok).toBe(false);
    expect(p!.invalid).toEqual({ decisions: 1, preferences: 1 });
    expect(parseExtractionOutput('[]')).toBeNull();
    expect(parseExtractionOutput([])).toBeNull();
    expect(parseExtractionOutput(undefined)).toBeNull();
  });
});
