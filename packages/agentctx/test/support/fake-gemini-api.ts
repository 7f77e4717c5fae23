import { type ScriptedApi, scriptedApi, serveLocal } from './fake-server.js';

/**
 * A scriptable stand-in for the Gemini API on 127.0.0.1, for the real Gemini CLI
 * (`GOOGLE_GEMINI_BASE_URL`). `POST /v1beta/models/<model>:streamGenerateContent?alt=sse` is
 * answered with server-sent GenerateContentResponse chunks; `:generateContent` (the model
 * router's request) with one JSON body; `:countTokens` with a count. Every request is kept.
 */

export type GeminiReply =
  | { type: 'text'; text: string }
  | { type: 'function_calls'; calls: { name: string; args: Record<string, unknown> }[] };

export interface RecordedGeminiRequest {
  path: string;
  /** `streamGenerateContent`, `generateContent`, `countTokens`, … */
  method: string;
  body: Record<string, unknown>;
}

export type GeminiScript = (req: RecordedGeminiRequest, index: number) => GeminiReply;

/** Its `url` is the base URL to give Gemini CLI (`GOOGLE_GEMINI_BASE_URL`). */
export type FakeGeminiApi = ScriptedApi<RecordedGeminiRequest, GeminiScript>;

const usage = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 };

function response(reply: GeminiReply): Record<string, unknown> {
  const parts =
    reply.type === 'text' ? [{ text: reply.text }] : reply.calls.map((c) => ({ functionCall: c }));
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason: 'STOP', index: 0 }],
    usageMetadata: usage,
    modelVersion: 'fake-model',
  };
}

const defaultScript: GeminiScript = () => ({ type: 'text', text: 'ok' });

export async function startFakeGeminiApi(script: GeminiScript = defaultScript): Promise<FakeGeminiApi> {
  let current = script;
  const requests: RecordedGeminiRequest[] = [];
  const server = await serveLocal((req, res, { body }) => {
    const url = req.url ?? '';
    const method = /:([A-Za-z]+)(?:\?|$)/.exec(url)?.[1] ?? '';
    const recorded: RecordedGeminiRequest = { path: url, method, body };
    requests.push(recorded);
    if (method === 'countTokens') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"totalTokens":100}');
      return;
    }
    if (method !== 'streamGenerateContent' && method !== 'generateContent') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":{"code":404,"message":"not here","status":"NOT_FOUND"}}');
      return;
    }
    let reply: GeminiReply;
    try {
      reply = current(recorded, requests.length - 1);
    } catch (err) {
      reply = { type: 'text', text: `script failed: ${String(err)}` };
    }
    if (method === 'generateContent') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(response(reply)));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.write(`data: ${JSON.stringify(response(reply))}\r\n\r\n`);
    res.end();
  });
  return scriptedApi(`${server.origin}`, requests, server, (s) => {
    current = s;
  });
}

/** Every text part of a request: its system instruction and contents, in order. */
export function requestTexts(req: RecordedGeminiRequest): string[] {
  const out: string[] = [];
  const sys = req.body.systemInstruction as { parts?: { text?: string }[] } | undefined;
  for (const p of sys?.parts ?? []) if (typeof p.text === 'string') out.push(p.text);
  const contents = Array.isArray(req.body.contents) ? (req.body.contents as { parts?: unknown[] }[]) : [];
  for (const c of contents)
    for (const p of c.parts ?? []) {
      const t = (p as { text?: unknown }).text;
      if (typeof t === 'string') out.push(t);
      const fr = (p as { functionResponse?: unknown }).functionResponse;
      if (fr) out.push(JSON.stringify(fr));
    }
  return out;
}

/** The function declarations a request offers, by name. */
export function declaredTools(req: RecordedGeminiRequest): string[] {
  const tools = Array.isArray(req.body.tools)
    ? (req.body.tools as { functionDeclarations?: { name: string }[] }[])
    : [];
  return tools.flatMap((t) => (t.functionDeclarations ?? []).map((d) => d.name));
}
