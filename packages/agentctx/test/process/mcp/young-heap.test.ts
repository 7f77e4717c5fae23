import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, isolatedEnv } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * The server's memory stays flat under a long run of calls: V8's young generation keeps its
 * initial size (src/mcp/young-heap.ts) instead of doubling up to 32 MB. A preload reports the
 * server's new-space size as it exits.
 */

let t: ReturnType<typeof tempDir>;
let report: string;
let client: Client;

beforeAll(async () => {
  t = tempDir('agentctx-mcp-heap-');
  const env = isolatedEnv(join(t.path, 'home'));
  const repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
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
});
