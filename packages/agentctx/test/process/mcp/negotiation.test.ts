import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The SDK's negotiating client (`@modelcontextprotocol/client`, which carries the 2026-07-28
 * revision) against the built `agentctx mcp`: with `versionNegotiation: 'auto'` it asks
 * `server/discover` first and, offered 2026-07-28, speaks it (no `initialize`, the version in
 * each request's `_meta`); pinned to it, the same; by default it still uses `initialize`.
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

async function exercise(client: Client): Promise<void> {
  expect(client.getServerCapabilities()).toEqual({ tools: {} });
  const tools = await client.listTools();
  expect(tools.tools.map((x) => x.name)).toContain('ctx_search');
  const res = await client.callTool({ name: 'ctx_search', arguments: { query: 'ledger' } });
  expect(JSON.stringify(res.content)).toContain('Ledger');
  // an unknown tool is a protocol error, which the client raises
  await expect(client.callTool({ name: 'ctx_nope', arguments: {} })).rejects.toThrow(/Unknown tool: ctx_nope/);
}

describe('protocol negotiation with the SDK client of the 2026-07-28 revision', () => {
  it('auto: probes with server/discover and speaks 2026-07-28 (no initialize), tools and all', async () => {
    const client = new Client(
      { name: 'agentctx-test', version: '0.0.0' },
      { versionNegotiation: { mode: 'auto', probe: { timeoutMs: 30_000 } } },
    );
    const started = Date.now();
    await client.connect(transport());
    try {
      // an answer, not the probe's timeout
      expect(Date.now() - started).toBeLessThan(15_000);
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe('2026-07-28');
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('pinned to 2026-07-28: served the same', async () => {
    const client = new Client(
      { name: 'agentctx-test', version: '0.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' }, probe: { timeoutMs: 30_000 } } },
    );
    await client.connect(transport());
    try {
      expect(client.getProtocolEra()).toBe('modern');
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 60_000);

  it('legacy (the default): initialize, 2025-11-25, as before', async () => {
    const client = new Client({ name: 'agentctx-test', version: '0.0.0' });
    await client.connect(transport());
    try {
      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      await exercise(client);
    } finally {
      await client.close();
    }
  }, 60_000);
});
