import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM_PROMPT } from '../../../src/core/extraction/prompt.js';
import { parseExtractionOutput } from '../../../src/core/extraction/schema.js';
import { RECORD_CONTEXT_TOOL } from '../../../src/core/extraction/tool-schema.js';
import { redactSecrets } from '../../../src/core/redaction/redact.js';
import { redactingClient } from '../../../src/core/redaction/redacting-client.js';
import { createAnthropicClient } from '../../../src/llm/anthropic.js';
import { createClaudeCliClient } from '../../../src/llm/claude-cli.js';
import { type LlmClient, LlmError, type StructuredRequest } from '../../../src/llm/client.js';
import { toolNames } from '../../support/agent-requests.js';
import { CLAUDE_BIN, claudeEnv } from '../../support/claude.js';
import {
  type FakeApi,
  type FakeReply,
  type RecordedRequest,
  startFakeApi,
} from '../../support/fake-messages-api.js';
import { rand } from '../../support/secret-corpus.js';
import { tempDir } from '../../support/tmp.js';

/**
 * One contract, two backends: the Anthropic API through the SDK, and the real `claude` CLI in
 * print mode, both against the same fake Messages API. Whatever the backend, extraction gets
 * the same structured answer, usage and a cost, errors as LlmError, and redacted input.
 */

const ANSWER = {
  decisions: [
    {
      what: 'Use undici for HTTP.',
      rationale: 'node-fetch is unmaintained.',
      supersedes: null,
      confidence: 'explicit',
    },
  ],
  preferences: [{ category: 'style', rule: 'Indent with tabs.', confidence: 'explicit', scope: 'global' }],
  conventions: [],
  active_work: {
    current_task: 'Migrate uploads',
    blockers: [],
    next_steps: ['upload.ts'],
    open_questions: [],
  },
  gotchas: [],
  flush_ok: false,
};

const USAGE = {
  input_tokens: 1200,
  output_tokens: 300,
  cache_creation_input_tokens: 0,
  cache_read_input_tokens: 0,
};

/** The extraction answer in whatever form the client asked for: its forced tool. */
function answerFor(req: RecordedRequest, output: unknown = ANSWER): FakeReply {
  if (req.raw.includes('"tool_result"')) return { content: [{ type: 'text', text: 'Done.' }], usage: USAGE };
  const names = toolNames(req);
  const tool = names.includes('record_context')
    ? 'record_context'
    : names.includes('StructuredOutput')
      ? 'StructuredOutput'
      : null;
  if (!tool) return { content: [{ type: 'text', text: 'ok' }] };
  return { content: [{ type: 'tool_use', name: tool, input: output }], usage: USAGE };
}

function request(user: string): StructuredRequest {
  return {
    system: SYSTEM_PROMPT,
    user,
    tool: RECORD_CONTEXT_TOOL as unknown as StructuredRequest['tool'],
  };
}

let api: FakeApi;
let t: ReturnType<typeof tempDir>;

beforeAll(async () => {
  api = await startFakeApi();
  t = tempDir();
});
afterAll(async () => {
  await api.close();
  t.cleanup();
});
beforeEach(() => {
  api.requests.length = 0;
});

const backends: [string, () => LlmClient][] = [
  [
    'anthropic-api',
    () =>
      createAnthropicClient({
        apiKey: 'sk-test',
        baseURL: api.url,
        model: 'claude-haiku-4-5',
        timeoutMs: 10_000,
        maxRetries: 0,
      }),
  ],
  [
    'claude-cli',
    () =>
      createClaudeCliClient({
        bin: CLAUDE_BIN as string,
        model: 'haiku',
        env: claudeEnv(join(t.path, 'home'), api.url),
        timeoutMs: 60_000,
        maxRetries: 0,
        scratchRoot: join(t.path, 'scratch'),
      }),
  ],
];

describe.skipIf(!CLAUDE_BIN).each(backends)('LLM backend contract: %s', (name, make) => {
  it('returns the structured answer, usage, a cost and the model; the prompt reached the API', async () => {
    api.setScript((req) => answerFor(req));
    const marker = `transcript-${rand(8)}`;
    const resp = await make().structured(request(`Developer: ${marker} we move to undici.`));
    expect(parseExtractionOutput(resp.output)?.output).toMatchObject({
      decisions: [{ what: 'Use undici for HTTP.', confidence: 'explicit' }],
      preferences: [{ rule: 'Indent with tabs.', scope: 'global' }],
      active_work: { current_task: 'Migrate uploads' },
      flush_ok: false,
    });
    expect(resp.usage.input_tokens).toBeGreaterThanOrEqual(USAGE.input_tokens);
    expect(resp.usage.output_tokens).toBeGreaterThanOrEqual(USAGE.output_tokens);
    expect(resp.costUsd).toBeGreaterThan(0);
    expect(resp.costUsd).toBeLessThan(0.1);
    expect(resp.model).toMatch(/haiku/);
    const asked = api.requests.filter((r) => r.raw.includes(marker));
    expect(asked.length).toBeGreaterThanOrEqual(1);
    // the extraction instructions travelled as the system prompt
    expect(JSON.stringify(asked[0]!.body.system)).toContain('record the project context worth keeping');
    if (name === 'claude-cli') {
      // the nested session had no tools of its own, only the structured-output one
      expect(toolNames(asked[0]!).filter((n) => n !== 'DeferredToolPlaceholder')).toEqual([
        'StructuredOutput',
      ]);
    }
  });

  it('re-sightings by id (reinforces) are offered to the model and come back through', async () => {
    const sightings = [
      { id: '01JX0000000000000000000001', confidence: 'inferred' },
      { id: '01JX0000000000000000000002', confidence: 'explicit' },
    ];
    api.setScript((req) => answerFor(req, { ...ANSWER, reinforces: sightings }));
    const marker = `transcript-${rand(8)}`;
    const resp = await make().structured(request(`Developer: ${marker} pnpm again.`));
    expect(parseExtractionOutput(resp.output)?.output.reinforces).toEqual(sightings);
    // the schema the model answered against has the field, with its shape
    const asked = api.requests.find((r) => r.raw.includes(marker))!;
    const tools = asked.body.tools as {
      name: string;
      input_schema: { properties: Record<string, unknown> };
    }[];
    const tool = tools.find(
      (x) => x.name === (name === 'claude-cli' ? 'StructuredOutput' : 'record_context'),
    )!;
    expect(tool.input_schema.properties.reinforces).toMatchObject({
      type: 'array',
      items: { properties: { id: { type: 'string' }, confidence: { enum: ['explicit', 'inferred'] } } },
    });
  });

  it('an HTTP error becomes an LlmError', async () => {
    api.setScript(() => ({ status: 400, content: [] }));
    await expect(make().structured(request('Developer: hello'))).rejects.toBeInstanceOf(LlmError);
  });

  it('behind the redacting wrapper, no secret reaches the API and none comes back', async () => {
    const key = `ghp_${rand(36)}`;
    const pw = rand(16);
    api.setScript((req) =>
      answerFor(req, { ...ANSWER, gotchas: [{ pattern: `Token ${key} is shared`, why_it_matters: 'x' }] }),
    );
    const client = redactingClient(make(), redactSecrets);
    const resp = await client.structured(request(`Developer: use ${key} and DB_PASSWORD=${pw}`));
    const sent = api.requests.map((r) => r.raw).join('\n');
    expect(sent).toContain('[REDACTED:github-token]');
    expect(sent).not.toContain(key);
    expect(sent).not.toContain(pw);
    expect(JSON.stringify(resp.output)).not.toContain(key);
    expect(JSON.stringify(resp.output)).toContain('[REDACTED:github-token]');
  });
});
