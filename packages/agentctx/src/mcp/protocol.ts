/**
 * The MCP protocol as this server speaks it: JSON-RPC 2.0 messages, one per line, on stdin and
 * stdout (the stdio transport), for a server that offers tools and nothing else. Requests:
 * `initialize` (version negotiation), `ping`, `tools/list`, `tools/call`; anything else is
 * "method not found". Notifications (`notifications/initialized`, `notifications/cancelled` …)
 * need no answer. Written here rather than taken from the SDK: the SDK builds its whole protocol
 * schema library at start-up, most of what a cold start cost beyond Node itself; the protocol
 * a tools-only server needs is this file, and the tests speak to it through the SDK's client.
 */

/** Newest first; a client asking for another version gets the newest (it decides whether to go on). */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

export interface TextContent {
  type: 'text';
  text: string;
}

export interface ToolResult {
  content: TextContent[];
  isError?: true;
}

export interface ToolDef {
  name: string;
  title: string;
  description: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, boolean>;
  /** Never throws: every failure is a result with isError. */
  call(args: unknown): Promise<ToolResult>;
}

export interface ServerInfo {
  name: string;
  version: string;
  instructions: string;
}

type Id = string | number;
type Message = Record<string, unknown>;

/** JSON-RPC error codes. */
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

export interface ProtocolOptions {
  info: ServerInfo;
  tools: readonly ToolDef[];
  /** Writes one message (the caller serialises it). */
  send(message: Message): void;
  /** Every tool result, before it is sent (self-accounting). */
  onToolResult?(result: ToolResult): void;
  /** The unknown-tool answer, as a tool result (the server's structured error). */
  unknownTool(name: string): ToolResult;
  /** A line that names no request to answer (not JSON, not a message): reported, not answered. */
  onIgnored?(why: string): void;
  onInitialized?(): void;
}

const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The protocol state machine: feed it each line read; it sends the answers. */
export function createProtocol(opts: ProtocolOptions): { handleLine(line: string): void } {
  const byName = new Map(opts.tools.map((t) => [t.name, t]));
  const listed = {
    tools: opts.tools.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: t.inputSchema,
      ...(t.annotations ? { annotations: t.annotations } : {}),
    })),
  };
  const reply = (id: Id | null, result: unknown) => opts.send({ jsonrpc: '2.0', id, result });
  const fail = (id: Id | null, code: number, message: string) =>
    opts.send({ jsonrpc: '2.0', id, error: { code, message } });

  const request = async (method: string, params: Message): Promise<unknown> => {
    switch (method) {
      case 'initialize': {
        const asked = params.protocolVersion;
        return {
          protocolVersion:
            typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0],
          capabilities: { tools: { listChanged: true } },
          serverInfo: { name: opts.info.name, version: opts.info.version },
          instructions: opts.info.instructions,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        return listed;
      case 'tools/call': {
        if (typeof params.name !== 'string')
          throw new RpcError(INVALID_PARAMS, 'tools/call needs the tool name (params.name)');
        const tool = byName.get(params.name);
        const result = tool ? await tool.call(params.arguments) : opts.unknownTool(params.name);
        opts.onToolResult?.(result);
        return result;
      }
      default:
        throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
    }
  };

  const handle = (msg: unknown) => {
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      opts.onIgnored?.('a line that is not a JSON-RPC message object');
      return;
    }
    const m = msg as Message;
    // An answer needs an id to go to; a message without one is only reported (a JSON-RPC error
    // with a null id is not a message every client accepts).
    const id = isId(m.id) ? m.id : null;
    const invalid = (why: string) =>
      id === null ? opts.onIgnored?.(why) : fail(id, INVALID_REQUEST, `Invalid Request: ${why}`);
    if (m.jsonrpc !== '2.0') return invalid('jsonrpc must be "2.0"');
    if (typeof m.method !== 'string') {
      // a response to a request of ours (we send none), or nonsense
      if (!('result' in m) && !('error' in m)) invalid('no method');
      return;
    }
    if (!('id' in m)) {
      if (m.method === 'notifications/initialized') opts.onInitialized?.();
      return; // notifications need no answer
    }
    if (id === null) return invalid('id must be a string or a number');
    const params = m.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      fail(id, INVALID_PARAMS, 'Invalid params: expected an object');
      return;
    }
    request(m.method, params as Message).then(
      (result) => reply(id, result),
      (err: unknown) =>
        err instanceof RpcError
          ? fail(id, err.code, err.message)
          : fail(id, INTERNAL_ERROR, `Internal error: ${err instanceof Error ? err.message : String(err)}`),
    );
  };

  return {
    handleLine(line: string) {
      if (line.trim() === '') return;
      let msg: unknown;
      try {
        msg = JSON.parse(line);
      } catch {
        opts.onIgnored?.('a line that is not JSON');
        return;
      }
      handle(msg);
    },
  };
}

/**
 * The stdio transport: lines from `input` (a trailing \r is dropped) to the protocol, messages
 * out as one JSON line each. `onEnd` runs when the input ends or fails.
 */
export function serveStdio(
  make: (send: (message: Message) => void) => { handleLine(line: string): void },
  input: NodeJS.ReadableStream,
  output: NodeJS.WritableStream,
  onEnd: () => void,
): void {
  const protocol = make((message) => {
    output.write(`${JSON.stringify(message)}\n`);
  });
  let buffered = '';
  input.setEncoding?.('utf8');
  input.on('data', (chunk: string | Buffer) => {
    buffered += typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    let nl = buffered.indexOf('\n');
    while (nl !== -1) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      protocol.handleLine(line.endsWith('\r') ? line.slice(0, -1) : line);
      nl = buffered.indexOf('\n');
    }
  });
  input.on('end', onEnd);
  input.on('error', onEnd);
}
