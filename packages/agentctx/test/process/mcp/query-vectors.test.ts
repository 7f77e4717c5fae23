import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgentctx, runJson } from '../../support/cli.js';
import { embeddedStore, PARAPHRASE_QUERY, resultIds } from '../../support/embedded-store.js';
import { tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

/**
 * CONTRACTS.md §inv-6, §rung-1: vectors are offline-only by default. With embeddings on, the
 * model downloaded and every record embedded, `agentctx mcp` still never loads the embedding
 * runtime unless `search.queryVectors` is set: no ONNX runtime mapped into the process, and
 * ctx_search is the keyword engine.
 */

/** The MCP log once the server has said how ctx_search will run (at most `ms`). */
async function decision(env: NodeJS.ProcessEnv, ms = 30_000): Promise<string> {
  const path = join(env.AGENTCTX_HOME!, 'logs', 'mcp.log');
  const until = Date.now() + ms;
  while (Date.now() < until) {
    const log = existsSync(path) ? readFileSync(path, 'utf8') : '';
    if (/ctx_search (hybrid|keyword-only)/.test(log)) return log;
    await new Promise((r) => setTimeout(r, 100));
  }
  return existsSync(path) ? readFileSync(path, 'utf8') : '';
}

/** Whether the ONNX runtime (the embedding model's engine) is mapped into the process. */
function onnxLoaded(mcp: McpSession): boolean {
  return /onnxruntime/.test(readFileSync(`/proc/${mcp.pid}/maps`, 'utf8'));
}

describe.runIf(process.platform === 'linux')('query-time vectors in agentctx mcp', () => {
  it('are off by default: the embedding runtime is never loaded and ctx_search is keyword-only', async () => {
    const dir = tempDir();
    const { repo, env } = embeddedStore(dir.path);
    const mcp = await startMcp(repo, env);
    try {
      expect((await mcp.call('ctx_search', { query: 'sqlite' })).isError).toBe(false);
      const log = await decision(env);
      expect(log).toContain('ctx_search keyword-only: query-time vectors are off');
      expect(log).not.toContain('ctx_search hybrid');
      // the paraphrase shares no word with its record: only vectors could find it
      expect(resultIds((await mcp.call('ctx_search', { query: PARAPHRASE_QUERY })).json)).toEqual([]);
      expect(onnxLoaded(mcp)).toBe(false);
      const status = runJson<{ query_vectors: { enabled: boolean } }>(['status'], { cwd: repo, env });
      expect(status.json.query_vectors.enabled).toBe(false);
    } finally {
      await mcp.close();
      dir.cleanup();
    }
  });

  it('are loaded only when search.queryVectors is set, and then find the paraphrase', async () => {
    const dir = tempDir();
    const { repo, env, answer } = embeddedStore(dir.path);
    const set = runAgentctx(['config', 'set', 'search.queryVectors', 'true'], { cwd: repo, env });
    expect(set.code, set.stderr).toBe(0);
    const mcp = await startMcp(repo, env);
    try {
      const log = await decision(env);
      expect(log).toContain('ctx_search hybrid: glove-sif-384-q8 loaded');
      expect(resultIds((await mcp.call('ctx_search', { query: PARAPHRASE_QUERY, limit: 1 })).json)).toEqual([
        answer,
      ]);
      expect(onnxLoaded(mcp)).toBe(true);
      const status = runJson<{ query_vectors: { enabled: boolean } }>(['status'], { cwd: repo, env });
      expect(status.json.query_vectors.enabled).toBe(true);
    } finally {
      await mcp.close();
      dir.cleanup();
    }
  });
});
