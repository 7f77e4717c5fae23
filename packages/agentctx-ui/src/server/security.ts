import { timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';

export const TOKEN_HEADER = 'x-agentctx-token';
/** The query parameter that carries the token in the URL `agentctx ui` opens, and in asset URLs. */
export const TOKEN_PARAM = 'token';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Host headers this server answers to: the loopback names with its own port (DNS rebinding). */
function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

function sameSecret(given: string | undefined, token: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

function forbidden(reason: string): Response {
  return new Response(JSON.stringify({ error: { code: 'forbidden', message: reason } }), {
    status: 403,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });
}

/**
 * Every request: the Host must be ours, a browser must not say the request is cross-site, and
 * the start-up token must come with it, reads included (any local account can reach 127.0.0.1
 * and spoof a Host header; only the user who started the server has the token). A read may
 * carry it in the URL (`?token=`, how the page and its assets are first loaded); a write only in
 * the header, which another origin cannot send without a (refused) preflight. Nothing sets
 * cookies or CORS headers, so another origin cannot read a response either.
 */
export function guard(opts: { token: string; port: () => number }): MiddlewareHandler {
  return async (c, next) => {
    const host = (c.req.header('host') ?? '').toLowerCase();
    if (!allowedHosts(opts.port()).includes(host)) return forbidden('unexpected Host header');
    if ((c.req.header('sec-fetch-site') ?? '').toLowerCase() === 'cross-site') {
      return forbidden('cross-site request refused');
    }
    const method = c.req.method.toUpperCase();
    if (method === 'OPTIONS') return forbidden('cross-origin requests are not served');
    const inHeader = sameSecret(c.req.header(TOKEN_HEADER), opts.token);
    const inUrl = !WRITE_METHODS.has(method) && sameSecret(c.req.query(TOKEN_PARAM), opts.token);
    if (!inHeader && !inUrl) {
      return forbidden('missing or wrong dashboard token: open the URL that `agentctx ui` printed');
    }
    await next();
    c.header('x-content-type-options', 'nosniff');
    c.header('referrer-policy', 'no-referrer');
    c.header('x-frame-options', 'DENY');
    c.header('cache-control', 'no-store');
  };
}
