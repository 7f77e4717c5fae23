import { type ChildProcess, spawn } from 'node:child_process';
import { VERSION } from '../version.js';

/**
 * A small MCP client over stdio (newline-delimited JSON-RPC 2.0), enough for `agentctx demo` to
 * call tools as Claude Code would and for `agentctx doctor` to check that the server answers.
 * Hand-written rather than the SDK's client: the CLI bundle stays free of it, and these two
 * commands need three methods only.
 */

interface McpStdioClient {
  /** The server's initialize result. */
  readonly server: { name?: string; version?: string; protocolVersion?: string };
  request(method: string, params?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Call a tool; `json` is its one text block parsed, when it is JSON. */
  callTool(
    name: string,
    args: Record<string, unknown>,
  ): Promise<{ isError: boolean; text: string; json: Record<string, unknown> | null }>;
  listTools(): Promise<string[]>;
  /** What the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

interface StartOptions {
  command: string;
  args: readonly string[];
  cwd: string;
  env: Record<string, string | undefined>;
  /** Per request, initialize included. */
  timeoutMs: number;
}

const PROTOCOL_VERSION = '2025-06-18';

/** Start the server and run the initialize handshake; rejects when it does not answer in time. */
export async function startMcpClient(opts: StartOptions): Promise<McpStdioClient> {
  const child: ChildProcess = spawn(opts.command, [...opts.args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    windowsHide: true,
  });
  let stderr = '';
  let buffer = '';
  let nextId = 1;
  let exited: string | null = null;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  const failAll = (err: Error) => {
    for (const p of pending.values()) p.reject(err);
    pending.clear();
  };
  child.stderr?.on('data', (d: Buffer) => {
    if (stderr.length < 64 * 1024) stderr += d.toString('utf8');
  });
  child.stdout?.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      let msg: { id?: unknown; result?: unknown; error?: { message?: string } };
      try {
        msg = JSON.parse(line) as typeof msg;
      } catch {
        failAll(new Error(`the server wrote a line that is not JSON-RPC: ${line.slice(0, 120)}`));
        continue;
      }
      if (typeof msg.id !== 'number') continue; // a notification or a request of the server's
      const p = pending.get(msg.id);
      if (!p) continue;
      pending.delete(msg.id);
      if (msg.error) p.reject(new Error(msg.error.message ?? 'error'));
      else p.resolve(msg.result);
    }
  });
  child.on('error', (err) => {
    exited = err.message;
    failAll(err);
  });
  child.on('exit', (code, signal) => {
    exited = `the server exited (${signal ?? `code ${code}`})`;
    failAll(new Error(`${exited}${stderr.trim() ? `: ${stderr.trim().split('\n').slice(-1)[0]}` : ''}`));
  });
  child.stdin?.on('error', () => {});

  const send = (msg: Record<string, unknown>) => {
    child.stdin?.write(`${JSON.stringify({ jsonrpc: '2.0', ...msg })}\n`);
  };
  const request = (method: string, params: Record<string, unknown> = {}) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (exited) return reject(new Error(exited));
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`no answer to ${method} within ${opts.timeoutMs} ms`));
      }, opts.timeoutMs);
      pending.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve((v ?? {}) as Record<string, unknown>);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      send({ id, method, params });
    });

  const close = async () => {
    if (exited) return;
    const done = new Promise<void>((r) => child.once('exit', () => r()));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000);
    await done;
    clearTimeout(timer);
  };

  let init: Record<string, unknown>;
  try {
    init = await request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities: {},
      clientInfo: { name: 'agentctx-cli', version: VERSION },
    });
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  send({ method: 'notifications/initialized' });
  const info = (init.serverInfo ?? {}) as { name?: string; version?: string };
  return {
    server: {
      name: info.name,
      version: info.version,
      protocolVersion: typeof init.protocolVersion === 'string' ? init.protocolVersion : undefined,
    },
    request,
    async callTool(name, args) {
      const res = await request('tools/call', { name, arguments: args });
      const content = Array.isArray(res.content) ? (res.content as { type?: string; text?: string }[]) : [];
      const text = content
        .filter((c) => c.type === 'text')
        .map((c) => c.text ?? '')
        .join('\n');
      let json: Record<string, unknown> | null = null;
      try {
        const v = JSON.parse(text) as unknown;
        if (v && typeof v === 'object' && !Array.isArray(v)) json = v as Record<string, unknown>;
      } catch {
        json = null;
      }
      return { isError: res.isError === true, text, json };
    },
    async listTools() {
      const res = await request('tools/list');
      const tools = Array.isArray(res.tools) ? (res.tools as { name?: string }[]) : [];
      return tools.map((t) => t.name ?? '').filter(Boolean);
    },
    stderr: () => stderr,
    close,
  };
}
