import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The server's memory stays flat under a long run of calls: V8's young generation keeps its
 * initial size (the bin sets its growth factor) instead of doubling up to 32 MB. A preload
 * reports the server's new-space size as it exits. The flag is set before the bundle is
 * compiled, so the code cache written at exit is accepted by the next start.
 */

let t: ReturnType<typeof tempDir>;
let report: string;
let client: Client;
let env: NodeJS.ProcessEnv;
let repo: string;

beforeAll(async () => {
  t = tempDir('agentctx-mcp-heap-');
  env = isolatedEnv(join(t.path, 'home'));
  repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
  report = join(t.path, 'heap.json');
  const preload = join(t.path, 'report-heap.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(report)}, JSON.stringify(require('node:v8').getHeapSpaceStatistics())));`,
  );
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['-r', preload, BIN, 'mcp'],
    cwd: repo,
    env: env as Record<string, string>,
    stderr: 'ignore',
  });
  client = new Client({ name: 'agentctx-test', version: '0.0.0' });
  await client.connect(transport);
});

afterAll(() => t?.cleanup());

const WORDS = 'ledger cache retry queue invoice tenant webhook session token migration index worker'.split(
  ' ',
);

describe('agentctx mcp memory under many calls', () => {
  it('keeps the young generation at its initial size over 800 calls', async () => {
    for (let i = 0; i < 60; i++) {
      const res = await client.callTool({
        name: 'ctx_record',
        arguments: {
          type: 'decision',
          title: `${WORDS[i % WORDS.length]} rule ${i}`,
          body: `${WORDS[(i * 7) % WORDS.length]} and ${WORDS[(i * 5) % WORDS.length]}: decided in round ${i}. `.repeat(
            8,
          ),
        },
      });
      expect(res.isError).not.toBe(true);
    }
    for (let i = 0; i < 800; i++) {
      const query = `${WORDS[i % WORDS.length]} ${WORDS[(i * 3) % WORDS.length]}`;
      const res = await client.callTool({ name: 'ctx_search', arguments: { query } });
      expect(res.isError).not.toBe(true);
    }
    await client.close();
    let spaces: { space_name: string; space_size: number }[] = [];
    for (let i = 0; i < 100 && spaces.length === 0; i++) {
      try {
        spaces = JSON.parse(readFileSync(report, 'utf8'));
      } catch {
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    const young = spaces.find((s) => s.space_name === 'new_space');
    expect(young, 'the server reported its heap').toBeDefined();
    // initial size: two 1 MB semi-spaces; unbounded it reaches 8–32 MB within these calls
    expect(young!.space_size).toBeLessThanOrEqual(4 * 2 ** 20);
  });

  it('starts from the code cache it wrote (the next start accepts it)', async () => {
    const cacheDir = join(t.path, 'home', '.agentctx', 'cache');
    const mcpCaches = () =>
      readdirSync(cacheDir).filter((f) => f.startsWith('mcp.cjs-') && f.endsWith('.v8'));
    const start = async () => {
      const c = new Client({ name: 'agentctx-test', version: '0.0.0' });
      await c.connect(
        new StdioClientTransport({
          command: process.execPath,
          args: [BIN, 'mcp'],
          cwd: repo,
          env: env as Record<string, string>,
          stderr: 'ignore',
        }),
      );
      const res = await c.callTool({ name: 'ctx_search', arguments: { query: 'ledger' } });
      expect(res.isError).not.toBe(true);
      await c.close();
      await new Promise((r) => setTimeout(r, 300)); // the cache is written as the server exits
    };
    await start(); // writes the cache if the first test's run did not
    const files = mcpCaches();
    expect(files).toHaveLength(1);
    const stamp = statSync(join(cacheDir, files[0]!)).mtimeMs;
    await start();
    // V8 rejects a cache stamped with other flags, and a rejected cache is written again
    expect(mcpCaches()).toEqual(files);
    expect(statSync(join(cacheDir, files[0]!)).mtimeMs).toBe(stamp);
    // SQLite is Node's own: the server's bundle is the only file compiled through the cache
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.v8'))).toEqual(files);
  });
});
