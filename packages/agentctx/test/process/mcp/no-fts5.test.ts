import { describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { noFts5Env } from '../../support/no-fts5.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { startMcp } from './client.js';

/**
 * CONTRACTS.md §rung-4 over real stdio: the MCP server's SQLite genuinely has no FTS5 (every
 * connection of the process loses the fts5 module, see test/support/no-fts5.ts). The store
 * opens, tools work, and ctx_search answers from LIKE search marked `degraded: "like-search"`.
 */

const ids = (json: Record<string, unknown>) => (json.results as { id: string }[]).map((r) => r.id);

describe('agentctx mcp on a SQLite without FTS5', () => {
  it('opens a new store and serves LIKE search marked like-search; FTS5 later finds it all', async () => {
    const dir = tempDir();
    const repo = fakeRepo(dir.path, 'repo', null);
    const env = isolatedEnv(dir.path, { AGENTCTX_NO_CLAUDE_CLI: '1' });
    const noFts = noFts5Env(env);
    try {
      const cli = runJson<{ id: string }>(
        [
          'record',
          '--type',
          'decision',
          '--title',
          'Ledger service',
          '--body',
          'Payments go through the ledger.',
        ],
        { cwd: repo, env: noFts },
      );
      expect(cli.code, cli.stderr).toBe(0);
      const mcp = await startMcp(repo, noFts);
      let viaMcp = '';
      try {
        const rec = await mcp.call('ctx_record', {
          type: 'convention',
          title: 'Ledger entries are immutable',
          body: 'A ledger entry is never edited; a correction is a new entry.',
        });
        expect(rec.isError, rec.text).toBe(false);
        viaMcp = rec.json.id as string;
        const res = await mcp.call('ctx_search', { query: 'ledger' });
        expect(res.isError, res.text).toBe(false);
        expect(res.json.degraded).toBe('like-search');
        expect(new Set(ids(res.json))).toEqual(new Set([cli.json.id, viaMcp]));
        const one = await mcp.call('ctx_search', { query: 'immutable ledger entries', limit: 1 });
        expect(ids(one.json)).toEqual([viaMcp]);
        const got = await mcp.call('ctx_get', { ids: [viaMcp] });
        expect(got.isError, got.text).toBe(false);
        // the CLAUDE.md check needs FTS5: a structured error that names the rung
        const drift = await mcp.call('ctx_sync_claudemd', {});
        expect(drift.isError).toBe(true);
        expect(drift.json).toMatchObject({ code: 'fts5_unavailable', degraded: 'like-search' });
        expect(mcp.errors).toEqual([]);
      } finally {
        await mcp.close();
      }
      // the CLI on the same SQLite says which rung it is on
      const status = runJson<{ degraded: { rung: number; marker: string; reason: string }[] }>(['status'], {
        cwd: repo,
        env: noFts,
      });
      expect(status.json.degraded.map((d) => d.marker)).toContain('like-search');
      expect(runAgentctx(['status', '--verbose'], { cwd: repo, env: noFts }).stdout).toMatch(
        /^ {10}like-search: /m,
      );
      // the same store with FTS5: the index is built from the records, nothing is missing
      const fts = runJson<{ results: { id: string }[]; degraded?: string }>(['search', 'ledger'], {
        cwd: repo,
        env,
      });
      expect(fts.json.degraded).toBeUndefined();
      expect(new Set(fts.json.results.map((r) => r.id))).toEqual(new Set([cli.json.id, viaMcp]));
    } finally {
      dir.cleanup();
    }
  });

  it('keeps working on a store made with FTS5, and FTS5 finds what was written without it', async () => {
    const dir = tempDir();
    const repo = fakeRepo(dir.path, 'repo', null);
    const env = isolatedEnv(dir.path, { AGENTCTX_NO_CLAUDE_CLI: '1' });
    const noFts = noFts5Env(env);
    try {
      const before = runJson<{ id: string }>(
        [
          'record',
          '--type',
          'decision',
          '--title',
          'Queue choice',
          '--body',
          'Jobs run on the durable queue.',
        ],
        { cwd: repo, env },
      );
      expect(before.code, before.stderr).toBe(0);
      const mcp = await startMcp(repo, noFts);
      let during = '';
      try {
        const rec = await mcp.call('ctx_record', {
          type: 'discovery',
          title: 'Queue retries',
          body: 'The durable queue retries a job five times.',
        });
        expect(rec.isError, rec.text).toBe(false);
        during = rec.json.id as string;
        const res = await mcp.call('ctx_search', { query: 'durable queue' });
        expect(res.json.degraded).toBe('like-search');
        expect(new Set(ids(res.json))).toEqual(new Set([before.json.id, during]));
      } finally {
        await mcp.close();
      }
      const mcp2 = await startMcp(repo, env);
      try {
        const res = await mcp2.call('ctx_search', { query: 'retries five times' });
        expect(res.json.degraded).not.toBe('like-search');
        expect(ids(res.json)[0]).toBe(during);
      } finally {
        await mcp2.close();
      }
    } finally {
      dir.cleanup();
    }
  });
});
