import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { embeddedStore, PARAPHRASE_QUERY, resultIds } from '../../support/embedded-store.js';
import { tempDir } from '../../support/tmp.js';
import { startMcp } from './client.js';

/**
 * Hybrid ctx_search over real stdio with the glove fixture, turned on with
 * `search.queryVectors` (off by default: see query-vectors.test.ts): the embedder loads in the
 * background (postponed here by AGENTCTX_MCP_EMBED_DELAY_MS), the first call answers
 * keyword-only without waiting, and once the model is ready a paraphrase sharing no word with
 * its record is found.
 */

describe('ctx_search hybrid in agentctx mcp', () => {
  it('first call keyword-only and not delayed; the paraphrase is found once the model is ready', async () => {
    const dir = tempDir();
    const { repo, env, answer } = embeddedStore(dir.path, {
      more: [['convention', 'Tabs', 'Indent with tabs.']],
      queryVectors: true,
    });
    const mcp = await startMcp(repo, { ...env, AGENTCTX_MCP_EMBED_DELAY_MS: '1500' });
    try {
      const first = await mcp.call('ctx_search', { query: PARAPHRASE_QUERY });
      expect(first.isError).toBe(false);
      // keyword-only: no word of the query occurs in any record
      expect(resultIds(first.json)).toEqual([]);
      const kw = await mcp.call('ctx_search', { query: 'sqlite' });
      expect(resultIds(kw.json)).toHaveLength(1);
      let found: string[] = [];
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        found = resultIds((await mcp.call('ctx_search', { query: PARAPHRASE_QUERY, limit: 1 })).json);
        if (found.length > 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(found).toEqual([answer]);
      // keyword matches still come first
      const after = await mcp.call('ctx_search', { query: 'sqlite', limit: 3 });
      expect(resultIds(after.json)[0]).toBe(resultIds(kw.json)[0]);
      const log = readFileSync(join(env.AGENTCTX_HOME!, 'logs', 'mcp.log'), 'utf8');
      expect(log).toContain('ctx_search hybrid: glove-sif-384-q8 loaded');
      expect(mcp.errors).toEqual([]);
    } finally {
      await mcp.close();
      dir.cleanup();
    }
  });

  it('model missing: keyword-only exactly as before, and the log says why', async () => {
    const dir = tempDir();
    const { repo, env } = embeddedStore(dir.path, {
      more: [['convention', 'Tabs', 'Indent with tabs.']],
      queryVectors: true,
    });
    const mcp = await startMcp(repo, { ...env, AGENTCTX_MODEL_PATH: join(dir.path, 'no-models') });
    try {
      const until = Date.now() + 2_000;
      const logPath = join(env.AGENTCTX_HOME!, 'logs', 'mcp.log');
      let log = '';
      while (Date.now() < until && !log.includes('keyword-only')) {
        await new Promise((r) => setTimeout(r, 100));
        try {
          log = readFileSync(logPath, 'utf8');
        } catch {}
      }
      expect(log).toContain('ctx_search keyword-only: model glove-sif-384-q8 is not downloaded');
      expect(resultIds((await mcp.call('ctx_search', { query: PARAPHRASE_QUERY })).json)).toEqual([]);
      expect(resultIds((await mcp.call('ctx_search', { query: 'sqlite' })).json)).toHaveLength(1);
    } finally {
      await mcp.close();
      dir.cleanup();
    }
  });
});
