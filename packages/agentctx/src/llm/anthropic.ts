import type Anthropic from '@anthropic-ai/sdk';
import {
  jsonFromText,
  type LlmClient,
  LlmError,
  type LlmUsage,
  type StructuredRequest,
  type StructuredResponse,
} from './client.js';
import { costOf } from './pricing.js';

interface AnthropicOptions {
  apiKey: string;
  baseURL?: string;
  model: string;
  /** Per-request timeout (ms); the SDK retries timeouts and 408/409/429/5xx. */
  timeoutMs?: number;
  maxRetries?: number;
}

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : 0;
}

/**
 * The Anthropic Messages API through the official SDK, answering by a forced tool call. The SDK
 * (1.3 MB of the CLI's code) is loaded at the first request, not when the client is made: most
 * commands that build a client never send one.
 */
export function createAnthropicClient(opts: AnthropicOptions): LlmClient {
  let loaded: Promise<{ sdk: Anthropic; Sdk: typeof Anthropic }> | undefined;
  const load = () =>
    (loaded ??= import('@anthropic-ai/sdk').then(({ default: Sdk }) => ({
      Sdk,
      sdk: new Sdk({
        apiKey: opts.apiKey,
        baseURL: opts.baseURL || undefined,
        timeout: opts.timeoutMs ?? 60_000,
        maxRetries: opts.maxRetries ?? 2,
      }),
    })));
  return {
    name: 'anthropic-api',
    model: opts.model,
    async structured(req: StructuredRequest): Promise<StructuredResponse> {
      const { sdk, Sdk } = await load();
      let msg: Anthropic.Message;
      try {
        msg = await sdk.messages.create({
          model: opts.model,
          max_tokens: req.maxOutputTokens ?? 4096,
          system: [{ type: 'text', text: req.system, cache_control: { type: 'ephemeral' } }],
          tools: [
            {
              name: req.tool.name,
              description: req.tool.description,
              input_schema: req.tool.input_schema as Anthropic.Tool.InputSchema,
            },
          ],
          tool_choice: { type: 'tool', name: req.tool.name },
          messages: [{ role: 'user', content: req.user }],
        });
      } catch (err) {
        const status = err instanceof Sdk.APIError ? err.status : undefined;
        const kind = err instanceof Sdk.APIConnectionTimeoutError ? 'timeout' : (err as Error).name;
        throw new LlmError(`${kind}${status ? ` ${status}` : ''}: ${(err as Error).message}`, status);
      }
      const usage: LlmUsage = {
        input_tokens: num(msg.usage?.input_tokens),
        output_tokens: num(msg.usage?.output_tokens),
        cache_creation_input_tokens: num(msg.usage?.cache_creation_input_tokens),
        cache_read_input_tokens: num(msg.usage?.cache_read_input_tokens),
      };
      let output: unknown;
      for (const block of msg.content) {
        if (block.type === 'tool_use' && block.name === req.tool.name) {
          output = block.input;
          break;
        }
      }
      if (output === undefined) {
        const text = msg.content
          .filter((b): b is Anthropic.TextBlock => b.type === 'text')
          .map((b) => b.text)
          .join('\n');
        output = jsonFromText(text);
      }
      return { output, usage, costUsd: costOf(usage), model: msg.model || opts.model };
    },
  };
}
