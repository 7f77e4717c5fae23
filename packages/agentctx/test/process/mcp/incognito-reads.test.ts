import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Db as Database } from '../../../src/database/sqlite.js';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { type McpSession, startMcp } from './client.js';

/**
 * The read tools in an incognito session answer but capture nothing: the store's rows (access
 * counters included) and every other file under the agentctx home stay exactly as they were.
 * Outside incognito the same ctx_get still counts the access, so the comparison can fail.
 */

/** Every row of every ordinary table, as text: what a read must leave as it was. */
function storeRows(dbPath: string): string {
  const db = new Database(dbPath, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
      )
      .all() as { name: string }[];
    return tables
      .map(({ name }) => {
        const rows = db.prepare(`SELECT * FROM "${name.replaceAll('"', '""')}"`).all();
        const lines = rows.map((r) => JSON.stringify(r)).sort();
        return `${name}\n${lines.join('\n')}`;
      })
      .join('\n\n');
  } finally {
    db.close();
  }
}

/** The files under the home other than the store itself (journals, logs, state), with their bytes. */
function homeFiles(home: string, store: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (p === store || p === `${store}-wal` || p === `${store}-shm`) continue;
      if (statSync(p).isDirectory()) walk(p);
      else out[relative(home, p)] = readFileSync(p).toString('base64');
    }
  };
  if (existsSync(home)) walk(home);
  return out;
}

describe('agentctx mcp read tools in an incognito session', () => {
  const t = tempDir('agentctx-mcp-incognito-reads-');
  let env: NodeJS.ProcessEnv;
  let repo: string;
  let mcp: McpSession;
  let store: string;
  let home: string;

  beforeAll(async () => {
    env = isolatedEnv(join(t.path, 'home'), { CLAUDE_CODE_SESSION_ID: 'quiet-reads' });
    home = env.AGENTCTX_HOME!;
    repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
    mcp = await startMcp(repo, env);
  });
  afterAll(async () => {
    await mcp?.close();
    t.cleanup();
  });

  it('answers ctx_get, ctx_search, ctx_related, ctx_project and ctx_sync_claudemd without writing', async () => {
    const a = await mcp.call('ctx_record', {
      type: 'decision',
      title: 'Queue retries back off',
      body: 'Exponential, capped at 60 s, in src/queue.ts.',
      files: ['src/queue.ts'],
    });
    expect(a.isError, a.text).toBe(false);
    const b = await mcp.call('ctx_record', {
      type: 'convention',
      title: 'Retry helpers live in lib/retry',
      body: 'Never hand-roll a retry loop.',
    });
    expect(b.isError, b.text).toBe(false);
    const ids = [String(a.json.id), String(b.json.id)];
    store = String(runJson<{ store: string }>(['status'], { cwd: repo, env }).json.store);

    expect(runAgentctx(['incognito', '--session', 'quiet-reads'], { cwd: repo, env }).code).toBe(0);
    const rowsBefore = storeRows(store);
    const filesBefore = homeFiles(home, store);

    const reads = [
      await mcp.call('ctx_get', { ids }),
      await mcp.call('ctx_get', { ids, history: true }),
      await mcp.call('ctx_get', { ids: [ids[0]], as_of: new Date().toISOString() }),
      await mcp.call('ctx_search', { query: 'queue retries' }),
      await mcp.call('ctx_search', { query: 'retry', file: 'src/queue.ts' }),
      await mcp.call('ctx_related', { file: 'src/queue.ts' }),
      await mcp.call('ctx_project'),
      await mcp.call('ctx_sync_claudemd'),
    ];
    for (const r of reads) expect(r.isError, r.text).toBe(false);
    // they still answer: both records come back, with the counters as they were
    const got = reads[0]!.json.records as { id: string; access_count: number }[];
    expect(got.map((r) => r.id).sort()).toEqual([...ids].sort());
    expect(got.every((r) => r.access_count === 0)).toBe(true);
    expect(reads[3]!.text).toContain(ids[0]);

    expect(storeRows(store)).toBe(rowsBefore);
    expect(homeFiles(home, store)).toEqual(filesBefore);

    // the same server, no longer incognito: ctx_get counts the access again
    expect(runAgentctx(['incognito', 'off'], { cwd: repo, env }).code).toBe(0);
    const counted = await mcp.call('ctx_get', { ids: [ids[0]] });
    expect(counted.isError, counted.text).toBe(false);
    expect((counted.json.records as { access_count: number }[])[0]!.access_count).toBe(1);
    expect(storeRows(store)).not.toBe(rowsBefore);
  });
});
