import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ScriptedApi, scriptedApi, sendJson, serveLocal } from './fake-server.js';

/**
 * A scriptable stand-in for the Anthropic Messages API on 127.0.0.1, for the real SDK and the
 * real `claude` binary. Speaks JSON and SSE streaming (`"stream": true`). Every request body
 * is kept in `requests` so tests can look for injected context in what the client sent.
 */

export type Block =
  | { type: 'text'; text: string }
  | { type: 'tool_use'; id?: string; name: string; input: unknown };

export interface FakeReply {
  content: Block[];
  stop_reason?: 'end_turn' | 'tool_use' | 'max_tokens';
  usage?: Partial<Usage>;
  /** Reply with this HTTP status and an error body instead. */
  status?: number;
  /** Wait this long before answering (timeouts). */
  delayMs?: number;
}

export interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  raw: string;
}

export type Script = (req: RecordedRequest, index: number) => FakeReply;

export type FakeApi = ScriptedApi<RecordedRequest, Script>;

let counter = 0;
function nextId(prefix: string): string {
  counter += 1;
  return `${prefix}_fake${Date.now().toString(36)}${counter}`;
}

function fullUsage(u: Partial<Usage> | undefined): Usage {
  return {
    input_tokens: u?.input_tokens ?? 100,
    output_tokens: u?.output_tokens ?? 20,
    cache_creation_input_tokens: u?.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u?.cache_read_input_tokens ?? 0,
  };
}

function withIds(blocks: Block[]): Block[] {
  return blocks.map((b) => (b.type === 'tool_use' ? { ...b, id: b.id ?? nextId('toolu') } : b));
}

function message(reply: FakeReply, model: string) {
  const content = withIds(reply.content);
  return {
    id: nextId('msg'),
    type: 'message',
    role: 'assistant',
    model,
    content,
    stop_reason: reply.stop_reason ?? (content.some((b) => b.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: fullUsage(reply.usage),
  };
}

function sse(res: ServerResponse, event: string, data: unknown): void {
  res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
}

function stream(res: ServerResponse, msg: ReturnType<typeof message>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(res, 'message_start', {
    type: 'message_start',
    message: { ...msg, content: [], stop_reason: null, usage: { ...msg.usage, output_tokens: 1 } },
  });
  msg.content.forEach((block, index) => {
    if (block.type === 'text') {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'text', text: '' },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'text_delta', text: block.text },
      });
    } else {
      sse(res, 'content_block_start', {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} },
      });
      sse(res, 'content_block_delta', {
        type: 'content_block_delta',
        index,
        delta: { type: 'input_json_delta', partial_json: JSON.stringify(block.input ?? {}) },
      });
    }
    sse(res, 'content_block_stop', { type: 'content_block_stop', index });
  });
  sse(res, 'message_delta', {
    type: 'message_delta',
    delta: { stop_reason: msg.stop_reason, stop_sequence: null },
    usage: { output_tokens: msg.usage.output_tokens },
  });
  sse(res, 'message_stop', { type: 'message_stop' });
  res.end();
}

const defaultScript: Script = () => ({ content: [{ type: 'text', text: 'ok' }] });

export async function startFakeApi(script: Script = defaultScript): Promise<FakeApi> {
  let current = script;
  const requests: RecordedRequest[] = [];
  const server = await serveLocal((req, res, { raw, body }) => {
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return sendJson(res, 200, '{}');
    if (req.url.startsWith('/v1/messages/count_tokens'))
      return sendJson(res, 200, { input_tokens: Math.ceil(raw.length / 4) });
    const recorded: RecordedRequest = { path: req.url, headers: req.headers, body, raw };
    requests.push(recorded);
    let reply: FakeReply;
    try {
      reply = current(recorded, requests.length - 1);
    } catch (err) {
      reply = { status: 500, content: [{ type: 'text', text: String(err) }] };
    }
    const send = () => {
      if (reply.status && reply.status >= 400) {
        res.writeHead(reply.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: 'scripted failure' } }));
        return;
      }
      const msg = message(reply, String(body.model ?? 'claude-haiku-4-5'));
      if (body.stream === true) stream(res, msg);
      else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(msg));
      }
    };
    if (reply.delayMs) setTimeout(send, reply.delayMs);
    else send();
  });
  return scriptedApi(`${server.origin}`, requests, server, (s) => {
    current = s;
  });
}

/** Does any request body so far contain `needle`? */
export function requestsContain(api: FakeApi, needle: string): boolean {
  return api.requests.some((r) => r.raw.includes(needle));
}
