import type { ServerResponse } from 'node:http';
import { type ScriptedApi, scriptedApi, sendJson, serveLocal } from './fake-server.js';

/**
 * A scriptable stand-in for OpenAI's chat-completions API on 127.0.0.1, for agents that speak
 * it (Qwen Code, OpenCode's openai-compatible provider). Each `POST …/chat/completions` is
 * answered with the script's reply, streamed as chat-completion chunks when the request asks
 * for `stream: true` (else one JSON body); every request body is kept in `requests`.
 */

export type ChatReply =
  | { type: 'text'; text: string }
  | { type: 'tool_calls'; calls: { name: string; arguments: unknown; id?: string }[] };

export interface RecordedChatRequest {
  path: string;
  body: Record<string, unknown>;
  raw: string;
}

export type ChatScript = (req: RecordedChatRequest, index: number) => ChatReply;

/** Its `url` is the base URL to give the agent (`…/v1`). */
export type FakeChatApi = ScriptedApi<RecordedChatRequest, ChatScript>;

let counter = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${++counter}`;

function chunk(res: ServerResponse, id: string, model: string, delta: unknown, finish: string | null) {
  const body = {
    id,
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
  res.write(`data: ${JSON.stringify(body)}\n\n`);
}

function answer(res: ServerResponse, reply: ChatReply, model: string, streamed: boolean): void {
  const id = nextId('chatcmpl');
  const calls =
    reply.type === 'tool_calls'
      ? reply.calls.map((c, index) => ({
          index,
          id: c.id ?? nextId('call'),
          type: 'function',
          function: {
            name: c.name,
            arguments: typeof c.arguments === 'string' ? c.arguments : JSON.stringify(c.arguments),
          },
        }))
      : [];
  const finish = reply.type === 'tool_calls' ? 'tool_calls' : 'stop';
  const usage = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 };
  if (!streamed) {
    res.writeHead(200, { 'content-type': 'application/json' });
    const message =
      reply.type === 'text'
        ? { role: 'assistant', content: reply.text }
        : { role: 'assistant', content: null, tool_calls: calls.map(({ index: _i, ...c }) => c) };
    res.end(
      JSON.stringify({
        id,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model,
        choices: [{ index: 0, message, finish_reason: finish }],
        usage,
      }),
    );
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  chunk(res, id, model, { role: 'assistant', content: '' }, null);
  if (reply.type === 'text') chunk(res, id, model, { content: reply.text }, null);
  else chunk(res, id, model, { tool_calls: calls }, null);
  chunk(res, id, model, {}, finish);
  res.write(
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model, choices: [], usage })}\n\n`,
  );
  res.write('data: [DONE]\n\n');
  res.end();
}

const defaultScript: ChatScript = () => ({ type: 'text', text: 'ok' });

export async function startFakeChatApi(script: ChatScript = defaultScript): Promise<FakeChatApi> {
  let current = script;
  const requests: RecordedChatRequest[] = [];
  const server = await serveLocal((req, res, { raw, body }) => {
    if (req.method === 'GET' && req.url?.endsWith('/models'))
      return sendJson(res, 200, '{"object":"list","data":[{"id":"m","object":"model"}]}');
    if (req.method !== 'POST' || !req.url?.includes('/chat/completions'))
      return sendJson(res, 404, '{"error":{"message":"not here"}}');
    const recorded: RecordedChatRequest = { path: req.url, body, raw };
    requests.push(recorded);
    let reply: ChatReply;
    try {
      reply = current(recorded, requests.length - 1);
    } catch (err) {
      reply = { type: 'text', text: `script failed: ${String(err)}` };
    }
    answer(res, reply, String(body.model ?? 'm'), body.stream === true);
  });
  return scriptedApi(`${server.origin}/v1`, requests, server, (s) => {
    current = s;
  });
}

/** The texts of a request's messages with `role` (string content or text parts). */
export function messageTexts(req: RecordedChatRequest, role: string): string[] {
  const messages = Array.isArray(req.body.messages) ? (req.body.messages as Record<string, unknown>[]) : [];
  const out: string[] = [];
  for (const m of messages) {
    if (m?.role !== role) continue;
    if (typeof m.content === 'string') out.push(m.content);
    else if (Array.isArray(m.content))
      for (const p of m.content as Record<string, unknown>[])
        if (typeof p?.text === 'string') out.push(p.text);
  }
  return out;
}

/** The tools a request offers, by function name. */
export function toolNames(req: RecordedChatRequest): string[] {
  const tools = Array.isArray(req.body.tools) ? (req.body.tools as Record<string, unknown>[]) : [];
  return tools.map((t) => String((t.function as Record<string, unknown> | undefined)?.name ?? t.name ?? ''));
}
