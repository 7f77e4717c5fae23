import type { MiddlewareHandler } from 'hono';

/**
 * The largest request body the dashboard reads: 64 KiB. Its biggest write, a record edit with a
 * 2,000-character body of 4-byte characters escaped as `\uXXXX` pairs, is about 26 KB.
 */
const BODY_LIMIT_BYTES = 64 * 1024;

function tooLarge(limit: number): Response {
  const message = `the request body is larger than ${Math.round(limit / 1024)} KiB`;
  return new Response(JSON.stringify({ error: { code: 'payload_too_large', message } }), {
    status: 413,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/**
 * Refuse a body over `limit` bytes with 413 while it arrives: a declared Content-Length over the
 * limit before a byte is read, a chunked body at the first chunk that passes it. Nothing past
 * the limit is kept: the rest of the upload is discarded by the HTTP server, not buffered. A body
 * within the limit is read whole here (at most `limit` bytes) and handed on to the route.
 */
export function bodyLimit(limit = BODY_LIMIT_BYTES): MiddlewareHandler {
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && !(Number(declared) <= limit)) return tooLarge(limit);
    const reader = body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        reader.cancel().catch(() => {});
        return tooLarge(limit);
      }
      chunks.push(value);
    }
    c.req.raw = new Request(c.req.raw, { body: Buffer.concat(chunks, size) });
    return next();
  };
}
