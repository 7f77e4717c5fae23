import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * What the fake model APIs share (fake-messages-api, fake-responses-api, fake-chat-api,
 * fake-gemini-api): a server on 127.0.0.1 at a free port that hands each request over with its
 * whole body read, text and JSON, and closes with its open connections.
 */

/** A request's body: the text, and the JSON object it holds ({} when it holds none). */
export interface RequestBody {
  raw: string;
  body: Record<string, unknown>;
}

/**
 * A scripted fake model API: the base URL to give the agent, every request it received in order,
 * the script that answers the next ones, and close.
 */
export interface ScriptedApi<Req, Script> {
  url: string;
  requests: Req[];
  setScript: (script: Script) => void;
  close: () => Promise<void>;
}

/** The API object over a running local server; `setScript` swaps the script its handler reads. */
export function scriptedApi<Req, Script>(
  url: string,
  requests: Req[],
  server: { close: () => Promise<void> },
  setScript: (script: Script) => void,
): ScriptedApi<Req, Script> {
  return { url, requests, setScript, close: server.close };
}

export interface LocalServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  close: () => Promise<void>;
}

export async function serveLocal(
  handle: (req: IncomingMessage, res: ServerResponse, got: RequestBody) => void,
): Promise<LocalServer> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(raw);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
          body = parsed as Record<string, unknown>;
      } catch {
        // not JSON: the raw text is kept
      }
      handle(req, res, { raw, body });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** One JSON answer. */
export function sendJson(res: ServerResponse, status: number, body: string | object): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}
