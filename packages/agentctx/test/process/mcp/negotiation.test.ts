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
  await expect(client.callTool({ name: 'ctx_nope', arguments: {} })).rejects.toThrow(
    /Unknown tool: ctx_nope/,
  );
}

/**
 * Connect the SDK client with `mode` (none: its default, `initialize`), check the era and version
 * it settled on, then use the tools; how long connecting took is returned.
 */
async function session(
  mode: 'auto' | { pin: string } | undefined,
  era: string,
  version: string,
): Promise<number> {
  const client = new Client(
    { name: 'agentctx-test', version: '0.0.0' },
    mode ? { versionNegotiation: { mode, probe: { timeoutMs: 30_000 } } } : {},
  );
  const started = Date.now();
  await client.connect(transport());
  const took = Date.now() - started;
  try {
    expect(client.getProtocolEra()).toBe(era);
    expect(client.getNegotiatedProtocolVersion()).toBe(version);
    await exercise(client);
  } finally {
    await client.close();
  }
  return took;
}

describe('protocol negotiation with the SDK client of the 2026-07-28 revision', () => {
  it('auto: probes with server/discover and speaks 2026-07-28 (no initialize), tools and all', async () => {
    // an answer, not the probe's 30 s timeout
    expect(await session('auto', 'modern', '2026-07-28')).toBeLessThan(15_000);
  }, 60_000);

  it('pinned to 2026-07-28: served the same', async () => {
    await session({ pin: '2026-07-28' }, 'modern', '2026-07-28');
  }, 60_000);

  it('legacy (the default): initialize, 2025-11-25, as before', async () => {
    await session(undefined, 'legacy', '2025-11-25');
  }, 60_000);
});
