#!/usr/bin/env node
// Time the built `agentctx scrub` on a store an older version left: N records (default
// 1000,20000) written with SQL, 1% of them holding a secret (a third of those in a superseded
// row), the full-text index and the word-frequency copy built. Prints the first pass (every row,
// rewrites, index merge, file rebuild), a rerun (nothing new), a run after 100 new clean rows, and
// what the scrub adds to `agentctx consolidate` once the store is clean; then counts the secrets
// left in the raw file bytes.
// Usage: node scripts/bench-scrub.mjs [N,N,...]   (run `npm run build` first)
// Asserts nothing. Uses a throwaway AGENTCTX_HOME, never ~/.agentctx.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db as Database } from '../dist/sqlite.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'agentctx.cjs');
const sizes = (process.argv[2] ?? '1000,20000').split(',').map(Number);
const WORDS =
  'the cache worker queue handler module request response error test build config deploy retry index schema migration token parser'.split(
    ' ',
  );
let seed = 7;
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const str = (n, a = ALNUM) => Array.from({ length: n }, () => a[Math.floor(rand() * a.length)]).join('');
const sentence = (n) => Array.from({ length: n }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' ');
const SECRETS = [
  () => `ghp_${str(36)}`,
  () => `AKIA${str(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
  () => `sk-ant-api03-${str(60)}`,
  () => `xoxb-${str(12, '0123456789')}-${str(24)}`,
];
const withSecret = (v, i) =>
  [`export DB_PASSWORD=${v}`, `the token: ${v}`, `curl -H "Authorization: Bearer ${v}"`, `key ${v} in CI`][
    i % 4
  ];

function run(args, cwd, env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, env, encoding: 'utf8', timeout: 900_000 });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: r.stdout, err: r.stderr, code: r.status };
}

function insert(db, projectId, from, n, secretShare, secrets) {
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, valid_from, recorded_at, source, superseded_at, superseded_by)
     VALUES (?, ?, 'decision', ?, ?, ?, ?, 'cli', ?, ?)`,
  );
  const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
  db.transaction(() => {
    for (let i = from; i < from + n; i++) {
      const id = `01SCRUB${String(i).padStart(19, '0')}`;
      let body = sentence(40 + Math.floor(rand() * 60));
      const secret = rand() < secretShare;
      if (secret) {
        const v = SECRETS[i % SECRETS.length]();
        secrets.push(v);
        body = `${body} ${withSecret(v, i)}`;
      }
      // a third of the secret rows are history: superseded by the next record
      const history = secret && i % 3 === 0;
      if (history) {
        const head = `01SCRUB${String(i).padStart(18, '0')}H`;
        ins.run(head, projectId, sentence(6), `${sentence(20)} rotated`, at, at, null, null);
        ins.run(id, projectId, sentence(8), body, at, at, at, head);
      } else ins.run(id, projectId, sentence(8), body, at, at, null, null);
    }
  })();
}

for (const n of sizes) {
  const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-scrub-'));
  const repo = join(home, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:bench/scrub.git\n');
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  const env = {
    PATH: process.env.PATH,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
  const st = JSON.parse(run(['status', '--json'], repo, env).out);
  const dbPath = join(home, '.agentctx', 'agentctx.db');
  const db = new Database(dbPath);
  const secrets = [];
  insert(db, st.project_id, 0, n, 0.01, secrets);
  // as an older version left it: schema 8, before the scrub's migration 9
  db.exec(
    'INSERT INTO term_df (term, doc) SELECT term, doc FROM records_fts_vocab; DROP TABLE scrub_state; PRAGMA user_version = 8;',
  );
  db.close();
  const first = run(['scrub', '--json'], repo, env);
  const again = run(['scrub', '--json'], repo, env);
  const db2 = new Database(dbPath);
  insert(db2, st.project_id, n + 1, 100, 0, []);
  db2.close();
  const more = run(['scrub', '--json'], repo, env);
  const c1 = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  const c2 = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  if ([first, again, more, c1, c2].some((r) => r.code !== 0)) {
    console.log(`${n} records: failed ${first.err}${again.err}${more.err}${c1.err}${c2.err}`);
    continue;
  }
  const [a, b, c] = [first, again, more].map((r) => JSON.parse(r.out));
  const s2 = JSON.parse(c2.out).scrub;
  const raw = ['', '-wal']
    .map((s) => dbPath + s)
    .filter(existsSync)
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n');
  const lower = raw.toLowerCase();
  const kept = secrets.filter((v) => {
    for (let i = 0; i + 12 <= v.length; i++)
      if (lower.includes(v.slice(i, i + 12).toLowerCase())) return true;
    return false;
  }).length;
  console.log(
    `${n} records, ${secrets.length} secrets: first pass ${a.ms} ms inside (${first.ms.toFixed(0)} wall; ${a.scanned} rows, ${a.changed} rewritten, ${a.history_changed} history, vacuumed ${a.vacuumed}); ` +
      `rerun ${b.ms} ms (${b.scanned} rows); after 100 new rows ${c.ms} ms (${c.scanned} rows); ` +
      `in a clean consolidate ${s2.ms} ms (${s2.scanned} rows); secrets kept in the raw file: ${kept} of ${secrets.length}`,
  );
  rmSync(home, { recursive: true, force: true });
}
