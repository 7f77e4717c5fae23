// Hook latency benchmark: `agentctx hook session-start` and `agentctx hook user-prompt-submit`
// (a short and a 55-word prompt) as whole child processes, against `node -e 0` started in the
// same run, interleaved, on stores of 1,000 / 10,000 / 100,000 records. Prints medians and
// ratios. Run `npm run build` first. Usage: node scripts/bench-hooks.mjs [--rounds N] [--sizes 1000,10000]
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const Database = require('better-sqlite3');
const BIN = join(root, 'bin', 'agentctx.cjs');

const argv = process.argv.slice(2);
const opt = (name, def) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1] : def;
};
const ROUNDS = Number(opt('rounds', '21'));
const SIZES = opt('sizes', '1000,10000,100000').split(',').map(Number);

// ---- a realistic store -------------------------------------------------------------------
const TYPES = [
  ['decision', 0.2],
  ['convention', 0.15],
  ['preference', 0.1],
  ['discovery', 0.25],
  ['bugfix', 0.2],
  ['handover', 0.05],
  ['profile', 0.05],
];
const WORDS = `auth session token refresh cookie middleware router handler request response cache redis
postgres migration schema index query transaction retry backoff timeout queue worker job cron
webhook payload signature stripe invoice billing subscription tenant account user role permission
policy audit log logger metrics tracing span exporter build bundle esbuild vite webpack typescript
eslint biome prettier vitest jest fixture mock snapshot coverage docker compose kubernetes helm
deploy staging production rollout feature flag config env secret vault s3 bucket upload image
resize thumbnail cdn graphql resolver schema mutation subscription websocket socket reconnect
heartbeat rate limit throttle debounce pagination cursor offset sort filter search fulltext sqlite
wal busy lock mutex race condition deadlock memory leak heap profile flame latency p99 regression
benchmark allocation buffer stream pipe backpressure encoding utf8 locale timezone date parsing
validation zod error boundary fallback retry circuit breaker health check readiness liveness probe
monorepo workspace package version semver changelog release tag branch rebase merge conflict hook
commit lint format ci pipeline artifact`
  .split(/\s+/)
  .filter(Boolean);
// Real project records also name many things of their own (modules, functions, vendors,
// error codes): 4,000 generated identifiers, drawn with a Zipf-like skew, give the store a
// realistic vocabulary instead of a few hundred words that every record repeats.
const SYLL = [
  'ka',
  'lo',
  'mer',
  'ti',
  'zan',
  'qu',
  'bri',
  'dor',
  'fel',
  'gra',
  'hon',
  'jis',
  'vek',
  'nup',
  'ost',
  'ry',
];
const NAMES = Array.from({ length: 4000 }, (_, i) => {
  let n = i + 7;
  let w = '';
  for (let k = 0; k < 3; k++) {
    w += SYLL[n % SYLL.length];
    n = Math.floor(n / SYLL.length) + k * 5;
  }
  return `${w}${i % 7 === 0 ? 'Service' : i % 5 === 0 ? 'Handler' : ''}`;
});
const CODEY = [
  'src/server/auth.ts',
  'lib/db/pool.go',
  'app/models/user.py',
  'packages/ui/Button.tsx',
  'Cargo.toml',
];
const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function ulidLike(i) {
  const t = (1_700_000_000_000 + i * 1000).toString(32).toUpperCase().padStart(10, '0');
  const r = [...randomBytes(16)].map((b) => CROCKFORD[b % 32]).join('');
  return (t + r).slice(0, 26);
}
// mulberry32: a seeded generator in 32-bit integer arithmetic. (An earlier LCG here multiplied
// past 2^53, lost precision and cycled, leaving 180 distinct records in a 10,000-record store.)
let seed = 42;
function rand() {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
function pickType() {
  let x = rand();
  for (const [t, w] of TYPES) {
    x -= w;
    if (x <= 0) return t;
  }
  return 'discovery';
}
function word() {
  if (rand() < 0.7) return pick(WORDS);
  return NAMES[Math.floor(NAMES.length * rand() ** 2)];
}
function sentence(n) {
  const w = Array.from({ length: n }, () => word());
  return `${w[0][0].toUpperCase()}${w[0].slice(1)} ${w.slice(1).join(' ')}.`;
}
function body() {
  const parts = [];
  const sentences = 2 + Math.floor(rand() * 4);
  for (let i = 0; i < sentences; i++) parts.push(sentence(6 + Math.floor(rand() * 10)));
  if (rand() < 0.3) parts.push(`See ${pick(CODEY)}.`);
  return parts.join(' ');
}

function makeStore(dir, projectId, n) {
  const home = join(dir, 'home');
  const env = benchEnv(home);
  // the CLI creates the store with its migrations
  const made = spawnSync(process.execPath, [BIN, 'status'], {
    cwd: join(dir, 'repo'),
    env,
    encoding: 'utf8',
  });
  if (made.status !== 0) throw new Error(`agentctx status failed: ${made.stderr}`);
  const db = new Database(join(home, '.agentctx', 'agentctx.db'));
  const insert = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, pinned, confidence, reinforce_count,
       valid_from, recorded_at, superseded_at, superseded_by, source, session_id)
     VALUES (?, ?, ?, ?, ?, ?, 0, ?, 0, ?, ?, ?, NULL, ?, ?)`,
  );
  const ids = [];
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = ulidLike(i);
      const type = pickType();
      const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      // 80% this project, 10% another project, 10% global preferences
      const r = rand();
      const pid = r < 0.8 ? projectId : r < 0.9 ? 'f'.repeat(64) : '_global';
      const scope = pid === '_global' && type !== 'handover' && type !== 'profile' ? 'global' : 'project';
      const superseded = rand() < 0.15 ? at : null;
      const title = sentence(4 + Math.floor(rand() * 6)).slice(0, 119);
      insert.run(
        id,
        scope === 'global' ? '_global' : pid === '_global' ? projectId : pid,
        type,
        title,
        body(),
        scope,
        rand() < 0.4 ? 'explicit' : 'inferred',
        at,
        at,
        superseded,
        rand() < 0.5 ? 'llm_extraction' : 'cli',
        `sess-${i % 500}`,
      );
      if (ids.length < 40 && pid === projectId && !superseded) ids.push(id);
    }
  })();
  db.close();
  // a digest as consolidation would leave it (about 1,300 tokens)
  const digests = join(home, '.agentctx', 'digests');
  mkdirSync(digests, { recursive: true });
  const lines = ['# Project context: app', ''];
  for (let i = 0; i < 40; i++) lines.push(`- [decision] ${sentence(10)} (${ids[i % ids.length]})`);
  writeFileSync(join(digests, `${projectId}.md`), lines.join('\n'));
  writeFileSync(
    join(digests, `${projectId}.ids.json`),
    JSON.stringify({ ids, tokens: 1300, generated_at: new Date().toISOString() }),
  );
  return { home, env };
}

/** Distinct records, and the share of records holding each word of the short prompt. */
function storeLoad(home) {
  const db = new Database(join(home, '.agentctx', 'agentctx.db'), { readonly: true });
  try {
    const { n, uniq } = db.prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT body) AS uniq FROM records').get();
    const df = db.prepare(
      'SELECT COALESCE(SUM(doc), 0) AS d FROM records_fts_vocab WHERE term >= ? AND term < ?',
    );
    const words = ['retry', 'webhook', 'queue'].map(
      (w) => `"${w}…" in ${((100 * df.get(w, `${w}\u{10FFFF}`).d) / n).toFixed(0)}%`,
    );
    return `${uniq} distinct bodies; ${words.join(', ')} of records`;
  } finally {
    db.close();
  }
}

function benchEnv(home) {
  const env = {
    ...process.env,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    AGENTCTX_TMPDIR: join(home, 'tmp'),
  };
  delete env.NODE_EXTRA_CA_CERTS; // the sandbox sets it; a user's hook environment does not
  delete env.NODE_OPTIONS;
  delete env.CLAUDE_CONFIG_DIR;
  env.CLAUDE_CONFIG_DIR = join(home, '.claude');
  return env;
}

function time(args, input, env, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const SHORT = 'why do we retry the webhook queue?';
const LONG =
  'I am seeing failures when the stripe webhook handler retries an invoice payload after a timeout, and the redis lock seems to be released before the postgres transaction commits; can you check how we configured the backoff, whether the queue worker honours the rate limit, and what we decided about idempotency keys for billing events?';

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-hooks-'));
try {
  console.log(
    `node ${process.version}, ${ROUNDS} rounds per size, long prompt ${LONG.split(/\s+/).length} words`,
  );
  const rows = [];
  for (const n of SIZES) {
    const sub = join(dir, `s${n}`);
    mkdirSync(sub);
    // each size gets its own home and repository folder (same origin, same project id)
    const linkRepo = join(sub, 'repo');
    mkdirSync(linkRepo);
    mkdirSync(join(linkRepo, '.git'));
    writeFileSync(
      join(linkRepo, '.git', 'config'),
      '[remote "origin"]\n\turl = git@github.com:acme/bench-app.git\n',
    );
    const status = spawnSync(process.execPath, [BIN, 'status', '--json'], {
      cwd: linkRepo,
      env: benchEnv(join(sub, 'home')),
      encoding: 'utf8',
    });
    const projectId = JSON.parse(status.stdout).project_id;
    const t0 = Date.now();
    const { env, home } = makeStore(sub, projectId, n);
    const buildMs = Date.now() - t0;
    const load = storeLoad(home);
    const samples = { node: [], start: [], short: [], long: [] };
    let injectedShort = 0;
    let injectedLong = 0;
    for (let i = 0; i < ROUNDS + 2; i++) {
      const sid = `bench-${n}-${i}`;
      const payload = (extra) =>
        JSON.stringify({ session_id: sid, transcript_path: '/dev/null', cwd: linkRepo, ...extra });
      const a = time(['-e', '0'], '', env, linkRepo);
      const b = time(
        [BIN, 'hook', 'session-start'],
        payload({ hook_event_name: 'SessionStart', source: 'startup' }),
        env,
        linkRepo,
      );
      const c = time(
        [BIN, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `${sid}-s`,
          transcript_path: '/dev/null',
          cwd: linkRepo,
          hook_event_name: 'UserPromptSubmit',
          prompt: SHORT,
        }),
        env,
        linkRepo,
      );
      const d = time(
        [BIN, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `${sid}-l`,
          transcript_path: '/dev/null',
          cwd: linkRepo,
          hook_event_name: 'UserPromptSubmit',
          prompt: LONG,
        }),
        env,
        linkRepo,
      );
      if (i < 2) continue; // warm-up
      samples.node.push(a.ms);
      samples.start.push(b.ms);
      samples.short.push(c.ms);
      samples.long.push(d.ms);
      if (c.out) injectedShort++;
      if (d.out) injectedLong++;
    }
    const base = median(samples.node);
    rows.push({
      records: n,
      build_s: (buildMs / 1000).toFixed(1),
      node_ms: base.toFixed(1),
      start_ms: median(samples.start).toFixed(1),
      start_x: (median(samples.start) / base).toFixed(2),
      short_ms: median(samples.short).toFixed(1),
      short_x: (median(samples.short) / base).toFixed(2),
      long_ms: median(samples.long).toFixed(1),
      long_x: (median(samples.long) / base).toFixed(2),
      injected: `${injectedShort}/${ROUNDS} short, ${injectedLong}/${ROUNDS} long`,
      load,
    });
  }
  console.log('');
  console.log(
    '| records | node -e 0 ms | session-start ms (×) | prompt short ms (×) | prompt 55 words ms (×) | injected | store build s |',
  );
  console.log('|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.records} | ${r.node_ms} | ${r.start_ms} (${r.start_x}×) | ${r.short_ms} (${r.short_x}×) | ${r.long_ms} (${r.long_x}×) | ${r.injected} | ${r.build_s} |`,
    );
  }
  console.log(
    '\nTargets at 10,000 records: session-start ≤ 1.4×, short prompt ≤ 1.6×, 55-word prompt ≤ 1.9×.',
  );
  console.log('How heavy the stores are for the short prompt (every record distinct):');
  for (const r of rows) console.log(`  ${r.records} records: ${r.load}`);
} finally {
  if (argv.includes('--keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
