// MCP benchmark: spawn → first ctx_search result, and ctx_search round-trip latency on an open
// connection at 10,000 and 100,000 records, then the engine alone in this process (what the
// protocol adds). Runs the BUILT `agentctx mcp` with a throwaway AGENTCTX_HOME; the store is
// seeded through the records repository.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { toIndexEntry } from '../../core/retrieval/index-entry.js';
import { search } from '../../core/retrieval/search.js';
import { openDb } from '../../database/open.js';
import { RECORD_TYPES, type RecordType } from '../../shared/types.js';
import { defineCommand, parseOrExit } from '../args.js';
import { callJson, connect } from '../mcp-client.js';
import { BIN, bareEnv, fakeRepo, storePath } from '../paths.js';
import { mulberry32, pick } from '../prng.js';
import { quantile } from '../proc.js';
import { type SeedRecord, seedStore } from '../seed.js';
import { serialId } from '../text.js';

const cmd = defineCommand({
  name: 'bench:mcp',
  summary: 'The built MCP server through the SDK client: cold start and ctx_search.',
  options: {
    sizes: { kind: 'ints', default: [10000, 100000], help: 'store sizes, in records' },
    spawns: { kind: 'int', default: 15, help: 'timed spawns per size' },
    queries: { kind: 'int', default: 300, help: 'ctx_search calls per size' },
    keep: { kind: 'flag', help: 'keep the store and print its folder' },
  },
});
const { sizes: SIZES, spawns: SPAWNS, queries: QUERIES, keep } = parseOrExit(cmd).values;
const rand = mulberry32(42);

// A vocabulary with a long tail: 5% of word slots are 20 common dev terms (each then appears in
// roughly one record in seven), the rest a Zipf-like draw from 20,000 words (the most frequent
// in ~8% of records), as in real notes.
const SYL = ['ka', 'lo', 'mi', 'ne', 'ru', 'sa', 'ti', 'vo', 'ze', 'pa', 'qu', 'do', 'fe', 'gi', 'ho'];
const VOCAB = Array.from({ length: 20000 }, (_, i) => {
  let w = '';
  let n = i + 7;
  do {
    w += SYL[n % SYL.length];
    n = Math.floor(n / SYL.length);
  } while (n > 0);
  return w;
});
const COMMON =
  'cache database test error config api build deploy auth user service queue retry timeout logging schema migration session token route'.split(
    ' ',
  );
const zipfWord = () =>
  rand() < 0.05 ? pick(rand, COMMON) : (VOCAB[Math.floor(VOCAB.length * rand() ** 1.5)] as string);
const phrase = (n: number) => Array.from({ length: n }, zipfWord).join(' ');
const TYPES: readonly RecordType[] = RECORD_TYPES;

/** Records `from`…`to - 1`: 70% this project, 20% another, 10% global; 10% retired. */
function* mcpRecords(
  projectId: string,
  otherId: string,
  from: number,
  to: number,
  hasHandover: Set<string>,
  stored: ReadonlySet<string>,
) {
  const now = Date.now();
  for (let i = from; i < to; i++) {
    const r = rand();
    const pid = r < 0.7 ? projectId : r < 0.9 ? otherId : '_global';
    const when = new Date(now - Math.floor(rand() * 400) * 86_400_000).toISOString();
    let type = pick(rand, TYPES.slice(0, pid === '_global' ? 3 : 7));
    // a retired handover goes in current and is then closed, which the store refuses while an
    // earlier size's current handover is there: a later size adds other facts instead
    if (type === 'handover' && stored.has(pid)) type = 'discovery';
    // a project keeps one current handover, and profile facts are keyed: the extra ones are
    // older versions, retired
    let superseded = rand() < 0.1 ? when : null;
    if (type === 'profile') superseded = when;
    if (type === 'handover' && !superseded) {
      if (hasHandover.has(pid)) superseded = when;
      else hasHandover.add(pid);
    }
    yield {
      id: serialId('01BENCH', i),
      project_id: pid,
      type,
      title: phrase(4 + Math.floor(rand() * 6)),
      body: phrase(30 + Math.floor(rand() * 50)),
      scope: pid === '_global' ? 'global' : 'project',
      confidence: pick(rand, ['explicit', 'inferred', 'reinforced'] as const),
      valid_from: when,
      superseded_at: superseded,
    } satisfies SeedRecord;
  }
}

const stats = (xs: number[]) => ({
  median: quantile(xs, 0.5),
  p95: quantile(xs, 0.95),
  min: Math.min(...xs),
  max: Math.max(...xs),
});
const ms = (x: number) => `${x.toFixed(2)} ms`;

/** The engine alone, in this process: what ctx_search costs without the MCP round trip. */
function engineLatency(dbPath: string, projectId: string, queries: string[]) {
  const db = openDb(dbPath, { readonly: true });
  const lat: number[] = [];
  for (const q of queries.slice(0, 20)) search(db, { projectId, query: q, limit: 10, now: new Date() });
  for (const query of queries) {
    const t = performance.now();
    const now = new Date();
    const res = search(db, { projectId, query, limit: 10, now });
    JSON.stringify({ results: res.hits.map((h) => toIndexEntry(h, now)) });
    lat.push(performance.now() - t);
  }
  db.close();
  return stats(lat);
}

function baseline(n: number) {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: { PATH: process.env.PATH } });
    xs.push(performance.now() - t);
  }
  return stats(xs);
}

const tmp = mkdtempSync(join(tmpdir(), 'agentctx-bench-mcp-'));
try {
  const home = join(tmp, 'home');
  const repo = fakeRepo(join(tmp, 'repo'), 'https://github.com/bench/repo.git');
  const env = bareEnv(home, { CLAUDE_CODE_SESSION_ID: 'bench-session' });
  const server = (name = 'bench') =>
    connect({ bin: BIN, cwd: repo, env, stderr: process.env.BENCH_STDERR ? 'inherit' : 'ignore', name });

  // the store (schema) made by the server itself, and the project id it sees
  const first = await server();
  const { project_id: projectId } = await callJson<{ project_id: string }>(first.client, 'ctx_project', {});
  await first.client.close();
  const dbPath = storePath(home);
  const queries = Array.from({ length: QUERIES }, () => phrase(2 + Math.floor(rand() * 5)));

  console.log(
    `agentctx MCP benchmark — node ${process.version}, ${SPAWNS} spawns, ${QUERIES} queries per size`,
  );
  const base = baseline(SPAWNS);
  console.log(`node -e 0 (same run): median ${ms(base.median)}, min ${ms(base.min)}`);

  let seeded = 0;
  const hasHandover = new Set<string>();
  for (const size of SIZES) {
    const t0 = performance.now();
    if (size > seeded)
      seeded += seedStore(
        dbPath,
        mcpRecords(projectId, 'f'.repeat(64), seeded, size, hasHandover, new Set(hasHandover)),
        { termDf: true },
      );
    console.log(
      `\n${size.toLocaleString('en')} records (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );

    const spawn: number[] = [];
    for (let i = 0; i < SPAWNS; i++) {
      const t = performance.now();
      const c = await server();
      await callJson(c.client, 'ctx_search', { query: pick(rand, queries) });
      spawn.push(performance.now() - t);
      await c.client.close();
    }
    const sp = stats(spawn);
    console.log(
      `  spawn → first ctx_search result: median ${ms(sp.median)}, p95 ${ms(sp.p95)}, min ${ms(sp.min)} (${(sp.median / base.median).toFixed(1)}× node -e 0)`,
    );

    const { client } = await server();
    for (const q of queries.slice(0, 20)) await callJson(client, 'ctx_search', { query: q }); // warm
    const lat: number[] = [];
    let hits = 0;
    for (const q of queries) {
      const t = performance.now();
      const res = await callJson<{ results: unknown[] }>(client, 'ctx_search', { query: q });
      lat.push(performance.now() - t);
      hits += res.results.length;
    }
    await client.close();
    const l = stats(lat);
    console.log(
      `  ctx_search on an open connection: median ${ms(l.median)}, p95 ${ms(l.p95)}, max ${ms(l.max)}; ${(hits / queries.length).toFixed(1)} results/query`,
    );
    const e = engineLatency(dbPath, projectId, queries);
    console.log(
      `  the engine alone (search + index entries, in process): median ${ms(e.median)}, p95 ${ms(e.p95)} → MCP overhead ≈ ${ms(l.median - e.median)}`,
    );
  }
} finally {
  if (keep || process.env.BENCH_KEEP) console.log(`kept ${tmp}`);
  else rmSync(tmp, { recursive: true, force: true });
}
