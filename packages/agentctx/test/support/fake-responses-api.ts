import type { IncomingMessage, ServerResponse } from 'node:http';
import { type ScriptedApi, scriptedApi, sendJson, serveLocal } from './fake-server.js';

/**
 * A scriptable stand-in for the OpenAI Responses API on 127.0.0.1, for the real Codex CLI.
 * Codex POSTs `<base_url>/responses` with `stream: true` and reads server-sent events; this
 * answers each request with the items its script returns (assistant text, function calls,
 * namespaced MCP calls) and keeps every request body in `requests`.
 */

export type ResponseItem =
  | { type: 'text'; text: string }
  | { type: 'function_call'; name: string; arguments: unknown; namespace?: string; callId?: string };

export interface RecordedResponsesRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  raw: string;
}

export type ResponsesScript = (req: RecordedResponsesRequest, index: number) => ResponseItem[];

/** Its `url` is the base URL to give Codex (`…/v1`). */
export type FakeResponsesApi = ScriptedApi<RecordedResponsesRequest, ResponsesScript>;

let counter = 0;
const nextId = (prefix: string) => `${prefix}_fake${Date.now().toString(36)}${++counter}`;

function sse(res: ServerResponse, data: Record<string, unknown>): void {
  res.write(`event: ${String(data.type)}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** One response, streamed as the Responses API streams it. */
function stream(res: ServerResponse, items: ResponseItem[], model: string): void {
  const id = nextId('resp');
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const response = { id, object: 'response', model, status: 'in_progress', output: [] as unknown[] };
  sse(res, { type: 'response.created', response });
  items.forEach((item, output_index) => {
    if (item.type === 'text') {
      const itemId = nextId('msg');
      sse(res, {
        type: 'response.output_item.added',
        output_index,
        item: { type: 'message', id: itemId, role: 'assistant', status: 'in_progress', content: [] },
      });
      sse(res, {
        type: 'response.output_text.delta',
        item_id: itemId,
        output_index,
        content_index: 0,
        delta: item.text,
      });
      const done = {
        type: 'message',
        id: itemId,
        role: 'assistant',
        status: 'completed',
        content: [{ type: 'output_text', text: item.text, annotations: [] }],
      };
      sse(res, { type: 'response.output_item.done', output_index, item: done });
      response.output.push(done);
    } else {
      const itemId = nextId('fc');
      const args = typeof item.arguments === 'string' ? item.arguments : JSON.stringify(item.arguments);
      const base = {
        type: 'function_call',
        id: itemId,
        call_id: item.callId ?? nextId('call'),
        name: item.name,
        ...(item.namespace ? { namespace: item.namespace } : {}),
      };
      sse(res, {
        type: 'response.output_item.added',
        output_index,
        item: { ...base, arguments: '', status: 'in_progress' },
      });
      sse(res, {
        type: 'response.function_call_arguments.delta',
        item_id: itemId,
        output_index,
        delta: args,
      });
      const done = { ...base, arguments: args, status: 'completed' };
      sse(res, { type: 'response.output_item.done', output_index, item: done });
      response.output.push(done);
    }
  });
  sse(res, {
    type: 'response.completed',
    response: {
      ...response,
      status: 'completed',
      usage: {
        input_tokens: 100,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 20,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 120,
      },
    },
  });
  res.end();
}

const defaultScript: ResponsesScript = () => [{ type: 'text', text: 'ok' }];

export async function startFakeResponsesApi(
  script: ResponsesScript = defaultScript,
): Promise<FakeResponsesApi> {
  let current = script;
  const requests: RecordedResponsesRequest[] = [];
  const server = await serveLocal((req, res, { raw, body }) => {
    if (req.method !== 'POST' || !req.url?.includes('/responses'))
      return sendJson(res, 404, '{"error":{"message":"not here"}}');
    const recorded: RecordedResponsesRequest = { path: req.url, headers: req.headers, body, raw };
    requests.push(recorded);
    let items: ResponseItem[];
    try {
      items = current(recorded, requests.length - 1);
    } catch (err) {
      items = [{ type: 'text', text: `script failed: ${String(err)}` }];
    }
    stream(res, items, String(body.model ?? 'gpt-5'));
  });
  return scriptedApi(`${server.origin}/v1`, requests, server, (s) => {
    current = s;
  });
}

/**
 * Requests that are turns of the session, not Codex's side requests (a title, with a schema)
 * nor agentctx's extraction through `codex exec` (structured output asked for).
 */
export function turnRequests(api: FakeResponsesApi): RecordedResponsesRequest[] {
  return api.requests.filter(
    (r) =>
      Array.isArray(r.body.tools) &&
      (r.body.tools as unknown[]).length > 0 &&
      (r.body.text as { format?: { type?: string } } | undefined)?.format?.type !== 'json_schema',
  );
}

/** The developer-role texts of a request's input (where Codex puts hook context). */
export function developerTexts(req: RecordedResponsesRequest): string[] {
  const input = Array.isArray(req.body.input) ? (req.body.input as Record<string, unknown>[]) : [];
  const out: string[] = [];
  for (const item of input) {
    if (item?.role !== 'developer' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Record<string, unknown>[])
      if (typeof part?.text === 'string') out.push(part.text);
  }
  return out;
}
