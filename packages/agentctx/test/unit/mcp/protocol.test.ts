import { PassThrough } from 'node:stream';
import { SUPPORTED_PROTOCOL_VERSIONS as CLIENT_VERSIONS } from '@modelcontextprotocol/client';
import { SUPPORTED_PROTOCOL_VERSIONS as SDK_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createProtocol,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
  serveStdio,
  type ToolDef,
  type ToolResult,
  UNSUPPORTED_PROTOCOL_VERSION,
} from '../../../src/mcp/protocol.js';

const echo: ToolDef = {
  name: 'echo',
  title: 'Echo',
  description: 'returns its arguments',
  inputSchema: { type: 'object', properties: {} },
  annotations: { readOnlyHint: true },
  call: async (args) => ({ content: [{ type: 'text', text: JSON.stringify(args ?? null) }] }),
};

function harness() {
  const sent: Record<string, unknown>[] = [];
  const ignored: string[] = [];
  const results: ToolResult[] = [];
  let initialized = 0;
  const p = createProtocol({
    info: { name: 'agentctx', version: '9.9.9', instructions: 'use it' },
    tools: [echo],
    // a batch answer is an array: kept as it came, for the batch tests to look at
    send: (m) => sent.push(m as Record<string, unknown>),
    onToolResult: (r) => results.push(r),
    onIgnored: (why) => ignored.push(why),
    onInitialized: () => initialized++,
  });
  const flush = () => new Promise((r) => setTimeout(r, 0));
  const ask = async (msg: unknown) => {
    p.handleLine(typeof msg === 'string' ? msg : JSON.stringify(msg));
    await flush();
    return sent.at(-1);
  };
  return { sent, ignored, results, ask, initialized: () => initialized, p, flush };
}

describe('the MCP protocol (tools only, JSON-RPC over stdio)', () => {
  it('negotiates the version: a supported one is echoed, any other gets the newest', async () => {
    const h = harness();
    for (const v of PROTOCOL_VERSIONS) {
      const r = (await h.ask({
        jsonrpc: '2.0',
        id: v,
        method: 'initialize',
        params: { protocolVersion: v },
      })) as {
        result: Record<string, unknown>;
      };
      expect(r.result).toEqual({
        protocolVersion: v,
        // no listChanged: the server never sends notifications/tools/list_changed
        capabilities: { tools: {} },
        serverInfo: { name: 'agentctx', version: '9.9.9' },
        instructions: 'use it',
      });
    }
    const other = (await h.ask({
      jsonrpc: '2.0',
      id: 9,
      method: 'initialize',
      params: { protocolVersion: '1999-01-01' },
    })) as {
      result: { protocolVersion: string };
    };
    expect(other.result.protocolVersion).toBe(PROTOCOL_VERSIONS[0]);
  });

  it('answers ping, tools/list and tools/call, and reports each tool result', async () => {
    const h = harness();
    expect(await h.ask({ jsonrpc: '2.0', id: 1, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
    expect(await h.ask({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { cursor: 'x' } })).toEqual({
      jsonrpc: '2.0',
      id: 2,
      result: {
        tools: [
          {
            name: 'echo',
            title: 'Echo',
            description: 'returns its arguments',
            inputSchema: { type: 'object', properties: {} },
            annotations: { readOnlyHint: true },
          },
        ],
      },
    });
    const call = await h.ask({
      jsonrpc: '2.0',
      id: 'c',
      method: 'tools/call',
      params: { name: 'echo', arguments: { a: 1 } },
    });
    expect(call).toEqual({
      jsonrpc: '2.0',
      id: 'c',
      result: { content: [{ type: 'text', text: '{"a":1}' }] },
    });
    // an unknown tool is a protocol error, -32602, as MCP asks (not a tool result)
    const unknown = await h.ask({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    expect(unknown).toEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: INVALID_PARAMS, message: 'Unknown tool: nope' },
    });
    expect(h.results).toHaveLength(1);
  });

  it('supports exactly the protocol versions of the SDK dev dependencies: a new revision fails here first', () => {
    expect(PROTOCOL_VERSIONS).toEqual(SDK_VERSIONS);
    expect(PROTOCOL_VERSIONS).toEqual(CLIENT_VERSIONS);
  });

  it('speaks 2026-07-28: server/discover, then requests that name their version, each result complete', async () => {
    const h = harness();
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28' };
    const serverInfo = { 'io.modelcontextprotocol/serverInfo': { name: 'agentctx', version: '9.9.9' } };
    expect(
      await h.ask({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        supportedVersions: MODERN_PROTOCOL_VERSIONS,
        capabilities: { tools: {} },
        instructions: 'use it',
        resultType: 'complete',
        _meta: serverInfo,
      },
    });
    const list = (await h.ask({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: meta } })) as {
      result: Record<string, unknown>;
    };
    expect(list.result).toMatchObject({
      ttlMs: 0,
      cacheScope: 'private',
      resultType: 'complete',
      _meta: serverInfo,
    });
    expect((list.result.tools as unknown[]).length).toBe(1);
    const call = (await h.ask({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { _meta: meta, name: 'echo', arguments: { a: 1 } },
    })) as { result: Record<string, unknown> };
    expect(call.result).toEqual({
      content: [{ type: 'text', text: '{"a":1}' }],
      resultType: 'complete',
      _meta: serverInfo,
    });
    // no initialize in 2026-07-28
    expect(
      await h.ask({
        jsonrpc: '2.0',
        id: 4,
        method: 'initialize',
        params: { _meta: meta, protocolVersion: '2026-07-28' },
      }),
    ).toMatchObject({ id: 4, error: { code: METHOD_NOT_FOUND } });
    // a version it does not speak: -32022, naming the ones it does
    expect(
      await h.ask({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/list',
        params: { _meta: { 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } },
      }),
    ).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: UNSUPPORTED_PROTOCOL_VERSION,
        message: 'Unsupported protocol version: 2099-01-01',
        data: { supported: MODERN_PROTOCOL_VERSIONS, requested: '2099-01-01' },
      },
    });
    // a 2025 request (no version in _meta) is answered as before: no resultType
    expect(await h.ask({ jsonrpc: '2.0', id: 6, method: 'ping' })).toEqual({
      jsonrpc: '2.0',
      id: 6,
      result: {},
    });
  });

  it('answers a batch as one under 2025-03-26, and refuses each request of it under any other version', async () => {
    const item = fc.oneof(
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.nat(),
        method: fc.constantFrom('ping', 'tools/list', 'nope'),
      }),
      fc.record({ jsonrpc: fc.constant('2.0'), method: fc.constant('notifications/cancelled') }),
      fc.record({
        jsonrpc: fc.constant('2.0'),
        id: fc.nat(),
        method: fc.constant('tools/call'),
        params: fc.record({ name: fc.constantFrom('echo', 'nope') }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.option(fc.constantFrom(...PROTOCOL_VERSIONS), { nil: null }),
        fc.uniqueArray(item, { maxLength: 6, selector: (m) => ('id' in m ? m.id : -1) }),
        async (version, batch) => {
          const h = harness();
          if (version)
            await h.ask({
              jsonrpc: '2.0',
              id: 'init',
              method: 'initialize',
              params: { protocolVersion: version },
            });
          const before = h.sent.length;
          h.p.handleLine(JSON.stringify(batch));
          await h.flush();
          await h.flush();
          const out = h.sent.slice(before);
          const ids = batch.flatMap((m) => ('id' in m ? [m.id] : []));
          if (version === '2025-03-26') {
            // one array, one answer per request, none for notifications
            expect(out.length).toBe(ids.length > 0 ? 1 : 0);
            const answers = (out[0] ?? []) as unknown as {
              id: number;
              result?: unknown;
              error?: { code: number };
            }[];
            expect(answers.map((a) => a.id).sort()).toEqual([...ids].sort());
            for (const a of answers) {
              const asked = batch.find((m) => 'id' in m && m.id === a.id)!;
              const known =
                asked.method !== 'nope' &&
                (asked.method !== 'tools/call' || ('params' in asked && asked.params.name === 'echo'));
              expect(a.result !== undefined).toBe(known);
            }
          } else {
            // before initialize, or a revision without batches: each request refused as a plain message
            expect(out.every((m) => !Array.isArray(m))).toBe(true);
            expect(out.map((m) => m.id).sort()).toEqual([...ids].sort());
            for (const m of out) expect((m.error as { code: number }).code).toBe(INVALID_REQUEST);
          }
        },
      ),
      { seed: 28, numRuns: 200 },
    );
    // initialize may never be part of a batch
    const h = harness();
    h.p.handleLine(
      JSON.stringify([
        { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-03-26' } },
      ]),
    );
    await h.flush();
    expect(h.sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 1,
        error: { code: INVALID_REQUEST, message: 'Invalid Request: initialize cannot be part of a batch' },
      },
    ]);
  });

  it('answers what it cannot do with JSON-RPC errors, and notifications with nothing', async () => {
    const h = harness();
    expect(await h.ask({ jsonrpc: '2.0', id: 1, method: 'resources/list' })).toMatchObject({
      id: 1,
      error: { code: METHOD_NOT_FOUND },
    });
    expect(await h.ask({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: {} })).toMatchObject({
      id: 2,
      error: { code: INVALID_PARAMS },
    });
    expect(await h.ask({ jsonrpc: '2.0', id: 3, method: 'ping', params: [1] })).toMatchObject({
      id: 3,
      error: { code: INVALID_PARAMS },
    });
    expect(await h.ask({ id: 4, method: 'ping' })).toMatchObject({ id: 4, error: { code: INVALID_REQUEST } });
    const before = h.sent.length;
    await h.ask({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await h.ask({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } });
    await h.ask({ jsonrpc: '2.0', id: 5, result: {} }); // a response: we asked nothing
    await h.ask('{ not json');
    await h.ask('[1, 2]');
    await h.ask({ jsonrpc: '2.0', id: null, method: 'ping' });
    await h.ask('');
    expect(h.sent.length).toBe(before);
    expect(h.initialized()).toBe(1);
    expect(h.ignored).toHaveLength(3);
  });

  it('never throws, and answers only requests, each once, with their own id', async () => {
    const message = fc.record(
      {
        jsonrpc: fc.constantFrom('2.0', '1.0', 2),
        id: fc.oneof(fc.integer(), fc.string({ maxLength: 4 }), fc.constant(null), fc.boolean()),
        method: fc.oneof(
          fc.constantFrom('initialize', 'ping', 'tools/list', 'tools/call', 'notifications/initialized'),
          fc.string({ maxLength: 12 }),
          fc.integer(),
        ),
        params: fc.oneof(
          fc.object(),
          fc.constant(null),
          fc.array(fc.integer()),
          fc.record({ name: fc.constantFrom('echo', 'nope', 1) }),
        ),
      },
      { requiredKeys: [] },
    );
    const line = fc.oneof(
      message.map((m) => JSON.stringify(m)),
      fc.string({ maxLength: 30 }),
      fc.json(),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(line, { maxLength: 20 }), async (lines) => {
        const h = harness();
        const requests: unknown[] = [];
        for (const l of lines) {
          h.p.handleLine(l);
          try {
            const m = JSON.parse(l) as Record<string, unknown>;
            const idOk = typeof m?.id === 'string' || (typeof m?.id === 'number' && Number.isFinite(m.id));
            if (m && typeof m === 'object' && !Array.isArray(m) && typeof m.method === 'string' && idOk)
              requests.push(m.id);
          } catch {
            // not JSON: no answer expected
          }
        }
        await h.flush();
        for (const s of h.sent) expect(s.jsonrpc).toBe('2.0');
        const answered = h.sent.map((s) => s.id);
        // every request answered once; nothing else answered except invalid messages with an id
        for (const id of requests) expect(answered).toContain(id);
        for (const s of h.sent) expect(s.id === null || s.id === undefined).toBe(false);
      }),
      { seed: 5, numRuns: 300 },
    );
  });

  it('reads lines however the input is cut, multi-byte characters included', async () => {
    const msgs = [
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'echo', arguments: { q: 'café ☕ 𝄞' } },
      },
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      {
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'echo', arguments: { q: 'ü'.repeat(50) } },
      },
    ];
    const bytes = Buffer.from(msgs.map((m) => `${JSON.stringify(m)}\r\n`).join(''), 'utf8');
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }),
        async (cuts) => {
          const input = new PassThrough();
          const output = new PassThrough();
          let out = '';
          output.on('data', (c: Buffer) => {
            out += c.toString('utf8');
          });
          let ended = false;
          serveStdio(
            (send) =>
              createProtocol({
                info: { name: 'a', version: '1', instructions: '' },
                tools: [echo],
                send,
              }),
            input,
            output,
            () => {
              ended = true;
            },
          );
          const points = [0, ...[...cuts].sort((a, b) => a - b), bytes.length];
          for (let i = 0; i + 1 < points.length; i++) input.write(bytes.subarray(points[i], points[i + 1]));
          input.end();
          await new Promise((r) => setTimeout(r, 5));
          const replies = out
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { id: number; result: { content?: { text: string }[] } });
          expect(replies.map((r) => r.id).sort()).toEqual([1, 2, 3]);
          expect(JSON.parse(replies.find((r) => r.id === 1)!.result.content![0]!.text)).toEqual({
            q: 'café ☕ 𝄞',
          });
          expect(ended).toBe(true);
        },
      ),
      { seed: 11, numRuns: 150 },
    );
  });
});
