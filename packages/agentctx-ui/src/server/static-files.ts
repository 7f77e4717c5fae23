import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join } from 'node:path';
import type { Hono } from 'hono';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json; charset=utf-8',
};

/** Where the start-up token goes in the page: its meta tag (read by the API client, no inline script) and its asset URLs. */
const TOKEN_PLACEHOLDER = '__AGENTCTX_TOKEN__';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * Serve the pre-built single-page app: index.html (with the token filled in) at `/`, and the
 * files of `<webDir>/assets` by exact name. Everything is read once at start-up; nothing else
 * on disk is reachable, whatever the path says.
 */
export function mountStatic(app: Hono, webDir: string, token: string): void {
  const indexPath = join(webDir, 'index.html');
  const index = existsSync(indexPath)
    ? readFileSync(indexPath, 'utf8').replaceAll(TOKEN_PLACEHOLDER, token)
    : '<!doctype html><title>agentctx</title><p>The dashboard was not built: run <code>npm run build</code>.</p>';
  const assetsDir = join(webDir, 'assets');
  // Read once, kept in memory (a few hundred kB): a rebuild of dist while the server runs
  // cannot serve a half-written file.
  const assets = new Map<string, { body: Buffer; type: string }>();
  if (existsSync(assetsDir)) {
    for (const name of readdirSync(assetsDir)) {
      const file = join(assetsDir, name);
      const type = TYPES[extname(name)];
      if (type && statSync(file).isFile()) assets.set(name, { body: readFileSync(file), type });
    }
  }
  const page = () =>
    new Response(index, {
      headers: { 'content-type': TYPES['.html']!, 'content-security-policy': CONTENT_SECURITY_POLICY },
    });
  app.get('/', page);
  app.get('/index.html', page);
  app.get('/assets/:name', (c) => {
    const asset = assets.get(c.req.param('name'));
    if (!asset) return c.text('not found', 404);
    return new Response(new Uint8Array(asset.body), { headers: { 'content-type': asset.type } });
  });
}
