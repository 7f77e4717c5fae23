/**
 * The MCP protocol as this server speaks it: JSON-RPC 2.0 messages, one per line, on stdin and
 * stdout (the stdio transport), for a server that offers tools and nothing else. Requests:
 * `initialize` (version negotiation) or `server/discover`, `ping`, `tools/list`, `tools/call`; anything else is
 * "method not found". Notifications (`notifications/initialized`, `notifications/cancelled` …)
 * need no answer. A JSON-RPC batch (an array) is answered as one only under 2025-03-26, the one
 * revision that had them; under any other its requests are refused one by one.
 *
 * The 2026-07-28 revision drops `initialize`: a client first asks `server/discover` (the
 * versions and capabilities), then names its version in each request's `_meta`; every result
 * says `resultType: "complete"`. Its clients fall back to `initialize` when a server answers the
 * probe with "method not found", so the 2025 revisions are still served as before. Tested with
 * the SDK's own negotiating client, both ways. Written here rather than taken from the SDK: the SDK builds its whole protocol
 * schema library at start-up, most of what a cold start cost beyond Node itself; the protocol
 * a tools-only server needs is this file, and the tests speak to it through the SDK's client.
 */

/**
 * Newest first; a client asking for another version gets the newest (it decides whether to go
 * on). A test holds this equal to the SDK's list, so a new revision fails CI first.
 */
export const PROTOCOL_VERSIONS = ['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'];

/** Revisions without `initialize`: a request names one in `_meta` (newest first). */
export const MODERN_PROTOCOL_VERSIONS = ['2026-07-28'];
const VERSION_META = 'io.modelcontextprotocol/protocolVersion';
const SERVER_INFO_META = 'io.modelcontextprotocol/serverInfo';

/** The revisions whose clients may send JSON-RPC batches (added in 2025-03-26, removed in 2025-06-18). */
const BATCH_VERSIONS = new Set(['2025-03-26']);

interface TextContent {
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
  /** Never throws: every failure is a result with isError. `meta`: the request's `_meta`. */
  call(args: unknown, meta?: Record<string, unknown>): Promise<ToolResult>;
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
const INTERNAL_ERROR = -32603;
/** 2026-07-28: the version a request names is not one this server speaks. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message);
  }
}

interface ProtocolOptions {
  info: ServerInfo;
  tools: readonly ToolDef[];
  /** Writes one message, or one batch answer (an array); the caller serialises it. */
  send(message: Message | Message[]): void;
  /** Every tool result, before it is sent (self-accounting). */
  onToolResult?(result: ToolResult, meta?: Record<string, unknown>): void;
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
  const failure = (id: Id | null, code: number, message: string, data?: unknown): Message => ({
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  });
  const serverInfo = { name: opts.info.name, version: opts.info.version };
  /** The version `initialize` settled on; null before it. */
  let negotiated: string | null = null;

  const request = async (method: string, params: Message, modern: boolean): Promise<unknown> => {
    switch (method) {
      case 'server/discover':
        return {
          supportedVersions: MODERN_PROTOCOL_VERSIONS,
          capabilities: { tools: {} },
          instructions: opts.info.instructions,
        };
      case 'initialize': {
        if (modern) throw new RpcError(METHOD_NOT_FOUND, 'Method not found: 2026-07-28 has no initialize');
        const asked = params.protocolVersion;
        negotiated =
          typeof asked === 'string' && PROTOCOL_VERSIONS.includes(asked) ? asked : PROTOCOL_VERSIONS[0]!;
        return {
          protocolVersion: negotiated,
          // the tool list never changes while the server runs: no listChanged to promise
          capabilities: { tools: {} },
          serverInfo,
          instructions: opts.info.instructions,
        };
      }
      case 'ping':
        return {};
      case 'tools/list':
        // 2026-07-28 makes a list say how long it may be cached: not at all, and only by this
        // client (the list is cheap, and a newer agentctx behind the same command may differ)
        return modern ? { ...listed, ttlMs: 0, cacheScope: 'private' } : listed;
      case 'tools/call': {
        if (typeof params.name !== 'string')
          throw new RpcError(INVALID_PARAMS, 'tools/call needs the tool name (params.name)');
        const tool = byName.get(params.name);
        // an unknown tool is a protocol error (MCP: -32602), not a tool's own failure
        if (!tool) throw new RpcError(INVALID_PARAMS, `Unknown tool: ${params.name.slice(0, 100)}`);
        // the request's _meta: Codex names its session there (mcp/context.ts callContext)
        const m = params._meta;
        const meta =
          typeof m === 'object' && m !== null && !Array.isArray(m)
            ? (m as Record<string, unknown>)
            : undefined;
        const result = await tool.call(params.arguments, meta);
        opts.onToolResult?.(result, meta);
        return result;
      }
      default:
        throw new RpcError(METHOD_NOT_FOUND, 'Method not found');
    }
  };

  /** The answer to one message, or null when it gets none (a notification, a stray response). */
  const handle = async (msg: unknown): Promise<Message | null> => {
    if (typeof msg !== 'object' || msg === null || Array.isArray(msg)) {
      opts.onIgnored?.('a line that is not a JSON-RPC message object');
      return null;
    }
    const m = msg as Message;
    // An answer needs an id to go to; a message without one is only reported (a JSON-RPC error
    // with a null id is not a message every client accepts).
    const id = isId(m.id) ? m.id : null;
    const invalid = (why: string) => {
      if (id !== null) return failure(id, INVALID_REQUEST, `Invalid Request: ${why}`);
      opts.onIgnored?.(why);
      return null;
    };
    if (m.jsonrpc !== '2.0') return invalid('jsonrpc must be "2.0"');
    if (typeof m.method !== 'string') {
      // a response to a request of ours (we send none), or nonsense
      return !('result' in m) && !('error' in m) ? invalid('no method') : null;
    }
    if (!('id' in m)) {
      if (m.method === 'notifications/initialized') opts.onInitialized?.();
      return null; // notifications need no answer
    }
    if (id === null) return invalid('id must be a string or a number');
    const params = m.params ?? {};
    if (typeof params !== 'object' || params === null || Array.isArray(params)) {
      return failure(id, INVALID_PARAMS, 'Invalid params: expected an object');
    }
    // 2026-07-28: the request names its version; a version this server does not speak is refused
    const asked = (params as { _meta?: Record<string, unknown> })._meta?.[VERSION_META];
    const modern = typeof asked === 'string' || m.method === 'server/discover';
    if (typeof asked === 'string' && !MODERN_PROTOCOL_VERSIONS.includes(asked)) {
      return failure(
        id,
        UNSUPPORTED_PROTOCOL_VERSION,
        `Unsupported protocol version: ${asked.slice(0, 40)}`,
        {
          supported: MODERN_PROTOCOL_VERSIONS,
          requested: asked,
        },
      );
    }
    try {
      const result = await request(m.method, params as Message, modern);
      if (!modern) return { jsonrpc: '2.0', id, result };
      const r = result as Message;
      return {
        jsonrpc: '2.0',
        id,
        result: {
          ...r,
          resultType: 'complete',
          _meta: { ...(r._meta as Message), [SERVER_INFO_META]: serverInfo },
        },
      };
    } catch (err) {
      return err instanceof RpcError
        ? failure(id, err.code, err.message, err.data)
        : failure(id, INTERNAL_ERROR, `Internal error: ${err instanceof Error ? err.message : String(err)}`);
    }
  };

  const sendAnswer = (answer: Message | null) => {
    if (answer) opts.send(answer);
  };

  /**
   * A batch: answered as one array under a revision that has batches (initialize may not be in
   * one); otherwise each request in it is refused on its own, as a plain message its client reads.
   */
  const handleBatch = (items: unknown[]) => {
    const requests = items.filter(
      (x): x is Message => typeof x === 'object' && x !== null && typeof (x as Message).method === 'string',
    );
    const ids = requests.flatMap((m) => (isId(m.id) ? [m.id] : []));
    const hasInitialize = requests.some((m) => m.method === 'initialize');
    if (negotiated === null || !BATCH_VERSIONS.has(negotiated) || hasInitialize) {
      if (ids.length === 0) opts.onIgnored?.('a JSON-RPC batch with no request to refuse');
      const why = hasInitialize
        ? 'initialize cannot be part of a batch'
        : `JSON-RPC batches are not part of MCP ${negotiated ?? 'before initialize'}`;
      for (const id of ids) opts.send(failure(id, INVALID_REQUEST, `Invalid Request: ${why}`));
      return;
    }
    if (items.length === 0) {
      opts.onIgnored?.('an empty JSON-RPC batch');
      return;
    }
    void Promise.all(items.map(handle)).then((answers) => {
      const sent = answers.filter((a): a is Message => a !== null);
      if (sent.length > 0) opts.send(sent);
    });
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
      if (Array.isArray(msg)) handleBatch(msg);
      else void handle(msg).then(sendAnswer);
    },
  };
}

/**
 * The stdio transport: lines from `input` (a trailing \r is dropped) to the protocol, messages
 * out as one JSON line each. `onEnd` runs when the input ends or fails.
 */
export function serveStdio(
  make: (send: (message: Message | Message[]) => void) => { handleLine(line: string): void },
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
