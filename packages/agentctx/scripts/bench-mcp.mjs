// MCP benchmark: spawn → first ctx_search result, and ctx_search round-trip latency on an open
// connection at 10,000 and 100,000 records. Runs the BUILT `agentctx mcp` (npm run build first)
// with a throwaway AGENTCTX_HOME; the store is seeded with direct SQL inserts.
// Usage: node scripts/bench-mcp.mjs [--sizes 10000,100000] [--spawns 15] [--queries 300]
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { build } from 'esbuild';
import { Db as Database } from '../dist/sqlite.cjs';
import { termDfAsConsolidated } from './hook-bench-store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'bin', 'agentctx.cjs');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? def : process.argv[i + 1];
};
const SIZES = String(arg('sizes', '10000,100000')).split(',').map(Number);
const SPAWNS = Number(arg('spawns', 15));
const QUERIES = Number(arg('queries', 300));

// A deterministic PRNG, so every run seeds the same store.
let seed = 42;
const rand = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// A vocabulary with a long tail: 5% of word slots are 20 common dev terms (each then appears in
// roughly one record in seven), the rest a Zipf-like draw from 20,000 words (the most frequent in ~8% of records) (as in real notes).
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
const COMMON = [
  'cache',
  'database',
  'test',
  'error',
  'config',
  'api',
  'build',
  'deploy',
  'auth',
  'user',
  'service',
  'queue',
  'retry',
  'timeout',
  'logging',
  'schema',
  'migration',
  'session',
  'token',
  'route',
];
const zipfWord = () => (rand() < 0.05 ? pick(COMMON) : VOCAB[Math.floor(VOCAB.length * rand() ** 1.5)]);
const phrase = (n) => Array.from({ length: n }, zipfWord).join(' ');
const TYPES = ['decision', 'convention', 'preference', 'discovery', 'bugfix', 'handover', 'profile'];

function ulidLike(i) {
  return `01BENCH${String(i).padStart(19, '0')}`;
}

function seedStore(dbPath, projectId, otherId, count) {
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const existing = db.prepare('SELECT COUNT(*) AS n FROM records').get().n;
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at,
       superseded_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'import')`,
  );
  const now = Date.now();
  // a project keeps one current handover (a unique index holds the store to it), and profile
  // facts are keyed: the extra ones are older versions, superseded
  const handover = new Set(
    db
      .prepare("SELECT project_id FROM records WHERE type = 'handover' AND superseded_at IS NULL")
      .all()
      .map((r) => r.project_id),
  );
  const tx = db.transaction(() => {
    for (let i = existing; i < count; i++) {
      // 70% this project, 20% another project, 10% global; 10% superseded
      const r = rand();
      const pid = r < 0.7 ? projectId : r < 0.9 ? otherId : '_global';
      const when = new Date(now - Math.floor(rand() * 400) * 86_400_000).toISOString();
      const type = pick(TYPES.slice(0, pid === '_global' ? 3 : 7));
      let superseded = rand() < 0.1 ? when : null;
      if (type === 'profile') superseded = when;
      if (type === 'handover' && !superseded) {
        if (handover.has(pid)) superseded = when;
        else handover.add(pid);
      }
      ins.run(
        ulidLike(i),
        pid,
        type,
        phrase(4 + Math.floor(rand() * 6)),
        phrase(30 + Math.floor(rand() * 50)),
        pid === '_global' ? 'global' : 'project',
        pick(['explicit', 'inferred', 'reinforced']),
        when,
        when,
        superseded,
      );
    }
  });
  tx();
  termDfAsConsolidated(db); // the word counts a consolidated store has
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function childEnv(home, extra = {}) {
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    AGENTCTX_TMPDIR: join(home, 'tmp'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
    ...extra,
  };
  return env; // NODE_EXTRA_CA_CERTS deliberately absent (a user's environment has none)
}

async function connect(repo, env) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo,
    env,
    stderr: process.env.BENCH_STDERR ? 'inherit' : 'ignore', // BENCH_STDERR=1 shows the server's stderr
  });
  const client = new Client({ name: 'bench', version: '0' });
  await client.connect(transport);
  return client;
}

async function search(client, query) {
  const res = await client.callTool({ name: 'ctx_search', arguments: { query } });
  if (res.isError) throw new Error(res.content[0].text);
  return JSON.parse(res.content[0].text);
}

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
};
const ms = (x) => `${x.toFixed(2)} ms`;

// The engine alone, in this process (bundled from src on the fly): what ctx_search costs
// without the MCP round trip, to separate the protocol's overhead from retrieval.
async function engineProbe(dir) {
  const out = join(dir, 'engine-probe.mjs');
  await build({
    stdin: {
      contents: `export { search } from './src/core/retrieval/search.ts'; export { toIndexEntry } from './src/core/retrieval/index-entry.ts';`,
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: out,
    logLevel: 'error',
  });
  return import(out);
}

function engineLatency(engine, dbPath, projectId, queries) {
  const db = new Database(dbPath, { readonly: true });
  const lat = [];
  for (const q of queries.slice(0, 20))
    engine.search(db, { projectId, query: q, limit: 10, now: new Date() });
  for (const query of queries) {
    const t = performance.now();
    const now = new Date();
    const res = engine.search(db, { projectId, query, limit: 10, now });
    JSON.stringify({ results: res.hits.map((h) => engine.toIndexEntry(h, now)) });
    lat.push(performance.now() - t);
  }
  db.close();
  return stats(lat);
}

function baseline(n) {
  const xs = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: { PATH: process.env.PATH } });
    xs.push(performance.now() - t);
  }
  return stats(xs);
}

async function main() {
  const tmp = mkdtempSync(join(tmpdir(), 'agentctx-bench-mcp-'));
  try {
    const home = join(tmp, 'home');
    const repo = join(tmp, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    writeFileSync(
      join(repo, '.git', 'config'),
      '[remote "origin"]\n\turl = https://github.com/bench/repo.git\n',
    );
    writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
    const env = childEnv(home, { CLAUDE_CODE_SESSION_ID: 'bench-session' });

    // Create the store (schema) through the server itself and learn the project id.
    const first = await connect(repo, env);
    const prof = await first.callTool({ name: 'ctx_project', arguments: {} });
    const projectId = JSON.parse(prof.content[0].text).project_id;
    await first.close();
    const dbPath = join(home, '.agentctx', 'agentctx.db');
    const queries = Array.from({ length: QUERIES }, () => phrase(2 + Math.floor(rand() * 5)));
    const engine = await engineProbe(tmp);

    console.log(
      `agentctx MCP benchmark — node ${process.version}, ${SPAWNS} spawns, ${QUERIES} queries per size`,
    );
    const base = baseline(SPAWNS);
    console.log(`node -e 0 (same run): median ${ms(base.median)}, min ${ms(base.min)}`);

    for (const size of SIZES) {
      const t0 = performance.now();
      seedStore(dbPath, projectId, 'f'.repeat(64), size);
      console.log(
        `\n${size.toLocaleString('en')} records (seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
      );

      const spawn = [];
      for (let i = 0; i < SPAWNS; i++) {
        const t = performance.now();
        const c = await connect(repo, env);
        await search(c, pick(queries));
        spawn.push(performance.now() - t);
        await c.close();
      }
      const sp = stats(spawn);
      console.log(
        `  spawn → first ctx_search result: median ${ms(sp.median)}, p95 ${ms(sp.p95)}, min ${ms(sp.min)} (${(sp.median / base.median).toFixed(1)}× node -e 0)`,
      );

      const client = await connect(repo, env);
      for (const q of queries.slice(0, 20)) await search(client, q); // warm
      const lat = [];
      let hits = 0;
      for (const q of queries) {
        const t = performance.now();
        const res = await search(client, q);
        lat.push(performance.now() - t);
        hits += res.results.length;
      }
      await client.close();
      const l = stats(lat);
      console.log(
        `  ctx_search on an open connection: median ${ms(l.median)}, p95 ${ms(l.p95)}, max ${ms(l.max)}; ${(hits / queries.length).toFixed(1)} results/query`,
      );
      const e = engineLatency(engine, dbPath, projectId, queries);
      console.log(
        `  the engine alone (search + index entries, in process): median ${ms(e.median)}, p95 ${ms(e.p95)} → MCP overhead ≈ ${ms(l.median - e.median)}`,
      );
    }
  } finally {
    if (!process.env.BENCH_KEEP) rmSync(tmp, { recursive: true, force: true });
    else console.log('kept', tmp);
  }
}

await main();
