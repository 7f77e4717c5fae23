import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { startMcp } from './client.js';

/**
 * Hybrid ctx_search over real stdio with the glove fixture, turned on with
 * `search.queryVectors` (off by default: see query-vectors.test.ts): the embedder loads in the
 * background (postponed here by AGENTCTX_MCP_EMBED_DELAY_MS), the first call answers
 * keyword-only without waiting, and once the model is ready a paraphrase sharing no word with
 * its record is found.
 */

const QUERY = 'which football game did the club lose';

function seeded(dir: string) {
  const repo = fakeRepo(dir, 'repo', null);
  const env = isolatedEnv(dir, {
    AGENTCTX_NO_CLAUDE_CLI: '1',
    AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
    AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
  });
  const add = (type: string, title: string, body: string) =>
    runJson<{ id: string }>(['record', '--type', type, '--title', title, '--body', body], {
      cwd: repo,
      env,
    }).json.id;
  add('decision', 'Persistence', 'Everything is kept in an SQLite file.');
  const answer = add(
    'discovery',
    'Season result',
    'The soccer team was beaten in the final match of the season.',
  );
  add('convention', 'Tabs', 'Indent with tabs.');
  const cons = runAgentctx(['consolidate', '--json'], { cwd: repo, env, timeoutMs: 60_000 });
  expect(cons.code).toBe(0);
  expect(JSON.parse(cons.stdout).embeddings).toMatchObject({ status: 'on', embedded: 3, pending: 0 });
  const set = runAgentctx(['config', 'set', 'search.queryVectors', 'true'], { cwd: repo, env });
  expect(set.code, set.stderr).toBe(0);
  return { repo, env, answer };
}

const ids = (json: Record<string, unknown>) => (json.results as { id: string }[]).map((r) => r.id);

describe('ctx_search hybrid in agentctx mcp', () => {
  it('first call keyword-only and not delayed; the paraphrase is found once the model is ready', async () => {
    const dir = tempDir();
    const { repo, env, answer } = seeded(dir.path);
    const mcp = await startMcp(repo, { ...env, AGENTCTX_MCP_EMBED_DELAY_MS: '1500' });
    try {
      const first = await mcp.call('ctx_search', { query: QUERY });
      expect(first.isError).toBe(false);
      // keyword-only: no word of the query occurs in any record
      expect(ids(first.json)).toEqual([]);
      const kw = await mcp.call('ctx_search', { query: 'sqlite' });
      expect(ids(kw.json)).toHaveLength(1);
      let found: string[] = [];
      const until = Date.now() + 30_000;
      while (Date.now() < until) {
        found = ids((await mcp.call('ctx_search', { query: QUERY, limit: 1 })).json);
        if (found.length > 0) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(found).toEqual([answer]);
      // keyword matches still come first
      const after = await mcp.call('ctx_search', { query: 'sqlite', limit: 3 });
      expect(ids(after.json)[0]).toBe(ids(kw.json)[0]);
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
    const { repo, env } = seeded(dir.path);
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
      expect(ids((await mcp.call('ctx_search', { query: QUERY })).json)).toEqual([]);
      expect(ids((await mcp.call('ctx_search', { query: 'sqlite' })).json)).toHaveLength(1);
    } finally {
      await mcp.close();
      dir.cleanup();
    }
  });
});
