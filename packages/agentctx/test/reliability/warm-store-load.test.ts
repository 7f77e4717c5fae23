import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  basePayload,
  type HookWorld,
  hookWorld,
  promptPayload,
  runHookAsync,
} from '../process/hooks/helpers.js';
import { type McpSession, startMcp } from '../process/mcp/client.js';
import { BIN, spawnCollect } from '../support/cli.js';
import { BENCH, figure, maxOf, percentile, SEED, scale, seeded, total } from '../support/faults.js';
import { rowsOf, storeHealth } from '../support/store-check.js';

/**
 * Many processes writing into a store that already holds records (a warm one: the parallel
 * first writes into a new store are parallel-first-writes.test.ts): LANES `agentctx record`
 * lanes of WRITES each, hooks capturing and injecting, and MCP servers (the real SDK client
 * over stdio) recording and searching, all at once. Every acknowledged write must be in the
 * store, no process may fail, and SQLite's and FTS5's own checks must pass afterwards.
 */

const LANES = scale(6, 50);
const WRITES = scale(3, 20);
const MCP_SERVERS = scale(2, 5);
const MCP_WRITES = scale(3, 20);
const HOOK_LANES = scale(2, 6);
const HOOK_RUNS = scale(3, 20);
const WARM_RECORDS = scale(400, 5000);

let w: HookWorld;
beforeAll(() => {
  w = hookWorld('git@github.com:acme/warm.git', 'warm');
  const db = w.db();
  const rand = seeded(SEED);
  const types = ['decision', 'convention', 'discovery', 'bugfix', 'preference'] as const;
  db.transaction(() => {
    for (let i = 0; i < WARM_RECORDS; i++) {
      const t = types[Math.floor(rand() * types.length)]!;
      w.add({
        type: t,
        title: `Warm ${t} ${i} on module m${i % 41}`,
        body: `Seeded fact ${i}: the m${i % 41} service keeps ${Math.floor(rand() * 1000)} entries in its cache.`,
      });
    }
  })();
  w.closeDb();
});
afterAll(() => w?.cleanup());

interface Outcome {
  kind: 'record' | 'hook' | 'mcp';
  ok: boolean;
  ms: number;
  detail?: string;
}

async function recordLane(lane: number, acked: Map<string, string>, out: Outcome[]): Promise<void> {
  for (let i = 0; i < WRITES; i++) {
    const title = `lane ${lane} write ${i}`;
    const t0 = Date.now();
    const r = await spawnCollect(
      process.execPath,
      [BIN, 'record', '--type', 'decision', '--title', title, '--body', `Body of ${title}.`, '--json'],
      { cwd: w.repo, env: w.env, timeoutMs: 120_000 },
    );
    const ok = r.code === 0;
    out.push({
      kind: 'record',
      ok,
      ms: Date.now() - t0,
      ...(ok ? {} : { detail: `${r.code}: ${r.stderr}` }),
    });
    if (ok) acked.set((JSON.parse(r.stdout) as { id: string }).id, title);
  }
}

async function hookLane(lane: number, out: Outcome[]): Promise<void> {
  for (let i = 0; i < HOOK_RUNS; i++) {
    const sid = `load-${lane}-${i}`;
    const runs: [string, unknown][] = [
      ['session-start', basePayload(w, sid, 'SessionStart', { source: 'startup' })],
      ['user-prompt-submit', promptPayload(w, sid, `how does the m${i % 41} service cache entries?`)],
      [
        'post-tool-use',
        basePayload(w, sid, 'PostToolUse', {
          tool_name: 'Bash',
          tool_input: { command: `npm test -- m${i}` },
          tool_response: { stdout: '', stderr: `Error: m${i} cache miss storm`, interrupted: false },
        }),
      ],
    ];
    for (const [event, payload] of runs) {
      const t0 = Date.now();
      const r = await runHookAsync(w, event, payload);
      const ok = r.code === 0 && (r.stdout.trim() === '' || typeof JSON.parse(r.stdout) === 'object');
      out.push({ kind: 'hook', ok, ms: Date.now() - t0, ...(ok ? {} : { detail: `${event} ${r.code}` }) });
    }
  }
}

async function mcpLane(s: McpSession, n: number, acked: Map<string, string>, out: Outcome[]): Promise<void> {
  for (let i = 0; i < MCP_WRITES; i++) {
    const title = `mcp ${n} write ${i}`;
    const t0 = Date.now();
    const res = await s.call('ctx_record', { type: 'convention', title, body: `Body of ${title}.` });
    out.push({
      kind: 'mcp',
      ok: !res.isError,
      ms: Date.now() - t0,
      ...(res.isError ? { detail: res.text } : {}),
    });
    if (!res.isError) acked.set(res.json.id as string, title);
    const found = await s.call('ctx_search', { query: `m${i % 41} cache` });
    out.push({ kind: 'mcp', ok: !found.isError, ms: Date.now() - t0 });
  }
}

describe('parallel processes into a warm store', () => {
  it(
    `${LANES} record lanes × ${WRITES}, ${HOOK_LANES} hook lanes, ${MCP_SERVERS} MCP servers: every acknowledged write kept`,
    async () => {
      const sessions = await Promise.all(Array.from({ length: MCP_SERVERS }, () => startMcp(w.repo, w.env)));
      const acked = new Map<string, string>();
      const out: Outcome[] = [];
      const t0 = Date.now();
      try {
        await Promise.all([
          ...Array.from({ length: LANES }, (_, i) => recordLane(i, acked, out)),
          ...Array.from({ length: HOOK_LANES }, (_, i) => hookLane(i, out)),
          ...sessions.map((s, i) => mcpLane(s, i, acked, out)),
        ]);
      } finally {
        await Promise.all(sessions.map((s) => s.close()));
      }
      const wall = Date.now() - t0;
      const failed = out.filter((o) => !o.ok);
      expect(failed).toEqual([]);
      for (const s of sessions) expect(s.errors).toEqual([]);
      const expected = LANES * WRITES + MCP_SERVERS * MCP_WRITES;
      expect(acked.size).toBe(expected);

      const stored = new Map(
        rowsOf<{ id: string; title: string }>(w.dbPath, 'SELECT id, title FROM records').map((r) => [
          r.id,
          r.title,
        ]),
      );
      const lost = [...acked].filter(([id, title]) => stored.get(id) !== title);
      expect(lost).toEqual([]);
      expect(stored.size).toBeGreaterThanOrEqual(WARM_RECORDS + expected);
      const fts = rowsOf<{ n: number }>(
        w.dbPath,
        'SELECT count(*) AS n FROM records_fts WHERE records_fts MATCH \'"write"\'',
      );
      expect(fts[0]!.n).toBe(expected);
      expect(storeHealth(w.dbPath)).toEqual({ integrity: 'ok', fts: 'ok' });

      const ms = (k: Outcome['kind']) => out.filter((o) => o.kind === k).map((o) => o.ms);
      const section = 'Load';
      figure(section, 'warm store records before the run', WARM_RECORDS);
      figure(section, 'record lanes × writes', `${LANES} × ${WRITES}`);
      figure(section, 'MCP servers × ctx_record (+ ctx_search each)', `${MCP_SERVERS} × ${MCP_WRITES}`);
      figure(section, 'hook runs alongside', ms('hook').length);
      figure(section, 'acknowledged writes found', `${acked.size - lost.length}/${acked.size}`);
      figure(section, 'writes lost', lost.length);
      figure(section, 'non-zero exits / tool errors', failed.length);
      figure(section, 'integrity_check + FTS integrity-check', 'ok');
      figure(
        section,
        'record p50 / max (under load)',
        `${percentile(ms('record'), 50)} / ${maxOf(ms('record'))}`,
        'ms',
      );
      figure(
        section,
        'hook p50 / max (under load)',
        `${percentile(ms('hook'), 50)} / ${maxOf(ms('hook'))}`,
        'ms',
      );
      figure(section, 'wall time', wall, 'ms');
      total(
        'load held',
        `${LANES} record lanes × ${WRITES} + ${MCP_SERVERS} MCP servers × ${MCP_WRITES} + ${ms('hook').length} hook runs into a warm store of ${WARM_RECORDS}`,
      );
      total('acknowledged writes', acked.size);
      total('writes lost', lost.length);
    },
    BENCH ? 1_800_000 : 150_000,
  );
});
