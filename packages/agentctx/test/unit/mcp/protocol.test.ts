import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createProtocol,
  INVALID_PARAMS,
  INVALID_REQUEST,
  METHOD_NOT_FOUND,
  PROTOCOL_VERSIONS,
  serveStdio,
  type ToolDef,
  type ToolResult,
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
    send: (m) => sent.push(m),
    unknownTool: (name) => ({ content: [{ type: 'text', text: `no ${name}` }], isError: true }),
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
        capabilities: { tools: { listChanged: true } },
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
    const unknown = await h.ask({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'nope' } });
    expect(unknown).toEqual({
      jsonrpc: '2.0',
      id: 3,
      result: { content: [{ type: 'text', text: 'no nope' }], isError: true },
    });
    expect(h.results).toHaveLength(2);
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
                unknownTool: () => ({ content: [] }),
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
