import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The SDK's negotiating client (`@modelcontextprotocol/client`, which carries the 2026-07-28
 * revision): with `versionNegotiation: 'auto'` it first asks `server/discover` and falls back to
 * `initialize` when the server answers -32601. The built `agentctx mcp` speaks the 2025
 * revisions, so the probe must end in that fallback, quickly (an answer, not the probe's
 * timeout), and the session must then work as any other.
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  t = tempDir('agentctx-mcp-negotiation-');
  repo = fakeRepo(t.path, 'repo', null);
  env = isolatedEnv(t.path, { AGENTCTX_NO_CLAUDE_CLI: '1' });
  const rec = runJson(
    ['record', '--type', 'decision', '--title', 'Ledger', '--body', 'Amounts are integer cents.'],
    {
      cwd: repo,
      env,
    },
  );
  expect(rec.code, rec.stderr).toBe(0);
});
afterAll(() => t.cleanup());

function transport(): StdioClientTransport {
  return new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo,
    env: env as Record<string, string>,
    stderr: 'pipe',
  });
}

describe('protocol negotiation with the SDK client of the 2026-07-28 revision', () => {
  it('probes with server/discover, falls back to initialize on -32601, then works', async () => {
    const client = new Client(
      { name: 'agentctx-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } },
    );
    const started = Date.now();
    await client.connect(transport());
    try {
      // a silent server would only fall back after the 30 s probe timeout
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(client.getServerCapabilities()).toEqual({ tools: {} });
      const tools = await client.listTools();
      expect(tools.tools.map((x) => x.name)).toContain('ctx_search');
      const res = await client.callTool({ name: 'ctx_search', arguments: { query: 'ledger' } });
      expect(JSON.stringify(res.content)).toContain('Ledger');
      // an unknown tool is a protocol error, which the client raises
      await expect(client.callTool({ name: 'ctx_nope', arguments: {} })).rejects.toThrow(
        /Unknown tool: ctx_nope/,
      );
    } finally {
      await client.close();
    }
  }, 60_000);

  it('a client pinned to 2026-07-28 alone is refused loudly, not half served', async () => {
    const client = new Client(
      { name: 'agentctx-test', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs: 30_000 } } },
    );
    await expect(client.connect(transport())).rejects.toThrow();
    await client.close().catch(() => undefined);
  }, 60_000);
});
