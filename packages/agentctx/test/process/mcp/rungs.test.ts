import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { FIXTURE_MODELS } from '../../support/models.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { startMcp } from './client.js';

/**
 * CONTRACTS.md §ladder: responses below rung 1 carry a `degraded` marker. Rung 2 (no offline vector
 * work) and rung 3 (no model for extraction) are named in `agentctx status` (text and --json) and on
 * the retrieval results of the MCP server (ctx_search, ctx_related); the lowest rung reached
 * names the marker.
 */

interface Rung {
  rung: number;
  marker: string;
  reason: string;
}

function world(dir: string, extra: Record<string, string>) {
  const repo = fakeRepo(dir, 'repo', null);
  const env = isolatedEnv(dir, {
    AGENTCTX_NO_CLAUDE_CLI: '1',
    AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
    ...extra,
  });
  const rec = runJson<{ id: string }>(
    [
      'record',
      '--type',
      'decision',
      '--title',
      'Persistence',
      '--body',
      'Everything is kept in an SQLite file.',
    ],
    { cwd: repo, env },
  );
  expect(rec.code, rec.stderr).toBe(0);
  return { repo, env };
}

async function markers(repo: string, env: NodeJS.ProcessEnv) {
  const status = runJson<{ degraded: Rung[] }>(['status'], { cwd: repo, env });
  expect(status.code, status.stderr).toBe(0);
  const text = runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout;
  const mcp = await startMcp(repo, env);
  try {
    const search = await mcp.call('ctx_search', { query: 'sqlite' });
    expect(search.isError, search.text).toBe(false);
    expect((search.json.results as unknown[]).length).toBe(1);
    const related = await mcp.call('ctx_related', { file: 'src/db.ts' });
    expect(related.isError, related.text).toBe(false);
    return {
      rungs: status.json.degraded,
      text,
      search: search.json.degraded,
      related: related.json.degraded,
    };
  } finally {
    await mcp.close();
  }
}

describe('degradation markers of CONTRACTS.md §ladder', () => {
  it('rung 1: no marker anywhere', async () => {
    const dir = tempDir();
    try {
      const { repo, env } = world(dir.path, {
        ANTHROPIC_API_KEY: 'sk-ant-test-never-sent',
        AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
      });
      const m = await markers(repo, env);
      expect(m.rungs).toEqual([]);
      expect(m.search).toBeUndefined();
      expect(m.related).toBeUndefined();
      expect(m.text).toMatch(/^fallbacks none: /m);
    } finally {
      dir.cleanup();
    }
  });

  it('rung 2: no model, no offline vector work: no-vectors', async () => {
    const dir = tempDir();
    try {
      const { repo, env } = world(dir.path, {
        ANTHROPIC_API_KEY: 'sk-ant-test-never-sent',
        AGENTCTX_MODEL_PATH: join(dir.path, 'no-models'),
      });
      const m = await markers(repo, env);
      expect(m.rungs.map((r) => [r.rung, r.marker])).toEqual([[2, 'no-vectors']]);
      expect(m.rungs[0]!.reason).toMatch(/not downloaded/);
      expect(m.search).toBe('no-vectors');
      expect(m.related).toBe('no-vectors');
      expect(m.text).toMatch(/^ {10}no-vectors: .*not downloaded/m);
    } finally {
      dir.cleanup();
    }
  });

  it('rung 3: no model for extraction: no-llm, which wins over rung 2', async () => {
    const dir = tempDir();
    try {
      const { repo, env } = world(dir.path, { AGENTCTX_MODEL_PATH: FIXTURE_MODELS });
      const m = await markers(repo, env);
      expect(m.rungs.map((r) => [r.rung, r.marker])).toEqual([[3, 'no-llm']]);
      expect(m.search).toBe('no-llm');
      expect(m.related).toBe('no-llm');
      expect(m.text).toMatch(/^ {10}no-llm: /m);
      const both = world(join(dir.path, 'both'), { AGENTCTX_MODEL_PATH: join(dir.path, 'no-models') });
      const m2 = await markers(both.repo, both.env);
      expect(m2.rungs.map((r) => r.marker)).toEqual(['no-vectors', 'no-llm']);
      expect(m2.search).toBe('no-llm');
    } finally {
      dir.cleanup();
    }
  });
});
