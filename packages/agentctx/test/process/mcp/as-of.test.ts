import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

/** `as_of` on ctx_search and ctx_get (CONTRACTS.md §history): an argument, not an eighth tool. */

let t: ReturnType<typeof tempDir>;
let mcp: McpSession;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  t = tempDir('agentctx-mcp-asof-');
  const env = isolatedEnv(join(t.path, 'home'));
  mcp = await startMcp(fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git'), env);
});
afterAll(async () => {
  await mcp?.close();
  t?.cleanup();
});

describe('as_of over MCP', () => {
  it('answers what was valid then; the schema stays seven tools', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.length).toBe(7);
    for (const name of ['ctx_search', 'ctx_get']) {
      const props = tools.find((x) => x.name === name)!.inputSchema.properties as Record<
        string,
        { type?: string }
      >;
      expect(props.as_of?.type).toBe('string');
    }
    const before = new Date().toISOString();
    await sleep(20);
    const old = await mcp.call('ctx_record', {
      type: 'decision',
      title: 'Search backend',
      body: 'Product search runs on Elasticsearch.',
    });
    await sleep(20);
    const between = new Date().toISOString();
    await sleep(20);
    const sup = await mcp.call('ctx_supersede', {
      old_id: old.json.id,
      new_body: 'Product search runs on Postgres full-text search.',
      rationale: 'one less cluster',
    });
    const newId = sup.json.new_id as string;

    const ids = async (args: Record<string, unknown>) =>
      (
        (await mcp.call('ctx_search', { query: 'product search runs', ...args })).json.results as {
          id: string;
        }[]
      ).map((r) => r.id);
    expect(await ids({})).toEqual([newId]);
    expect(await ids({ as_of: between })).toEqual([old.json.id]);
    expect(await ids({ as_of: before })).toEqual([]);

    // ctx_get: the version of each id's chain valid then, saying which id asked for it
    const got = await mcp.call('ctx_get', { ids: [newId], as_of: between });
    expect(got.isError).toBe(false);
    expect(got.json.records).toEqual([
      expect.objectContaining({
        id: old.json.id,
        requested_id: newId,
        body: 'Product search runs on Elasticsearch.',
      }),
    ]);
    const none = await mcp.call('ctx_get', { ids: [newId, 'NOPE0000000000000000000000'], as_of: before });
    expect(none.json).toMatchObject({
      records: [],
      missing: ['NOPE0000000000000000000000'],
      not_valid_then: [newId],
    });

    const bad = await mcp.call('ctx_search', { query: 'x', as_of: 'last tuesday' });
    expect(bad.isError).toBe(true);
    expect(bad.json.code).toBe('invalid_input');
  });
});
