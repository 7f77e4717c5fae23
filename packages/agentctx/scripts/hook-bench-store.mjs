// The synthetic store the hook benchmarks run against (bench:hooks, profile:hook): developer
// records built with direct SQL, a digest as consolidation would leave it, and the prompts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  DEV_WORDS,
  INSERT_RECORD_SQL,
  madeUpName,
  mulberry32,
  pickWeighted,
  sentenceOf,
  ulidAt,
} from './bench-text.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { Db: Database } = require('../dist/sqlite.cjs');
export const BIN = join(root, 'bin', 'agentctx.cjs');

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
const WORDS = DEV_WORDS;
// Real project records also name many things of their own (modules, functions, vendors,
// error codes): 4,000 made-up identifiers, drawn with a Zipf-like skew, give the store a
// realistic vocabulary instead of a few hundred words that every record repeats.
const NAMES = Array.from(
  { length: 4000 },
  (_, i) => `${madeUpName(i + 7, 4)}${i % 7 === 0 ? 'Service' : i % 5 === 0 ? 'Handler' : ''}`,
);
const CODEY = [
  'src/server/auth.ts',
  'lib/db/pool.go',
  'app/models/user.py',
  'packages/ui/Button.tsx',
  'Cargo.toml',
];
const rand = mulberry32(42);
// ids draw from their own stream, so the text does not depend on them
const idRand = mulberry32(4242);
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const pickType = () => pickWeighted(rand, TYPES, 'discovery');
function word() {
  if (rand() < 0.7) return pick(WORDS);
  return NAMES[Math.floor(NAMES.length * rand() ** 2)];
}
const sentence = (n) => sentenceOf(Array.from({ length: n }, () => word()));
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
  const insert = db.prepare(INSERT_RECORD_SQL);
  const ids = [];
  const currentHandover = new Set();
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const id = ulidAt(i, idRand);
      const type = pickType();
      const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
      // 80% this project, 10% another project, 10% global preferences
      const r = rand();
      const pid = r < 0.8 ? projectId : r < 0.9 ? 'f'.repeat(64) : '_global';
      const scope = pid === '_global' && type !== 'handover' && type !== 'profile' ? 'global' : 'project';
      const owner = scope === 'global' ? '_global' : pid === '_global' ? projectId : pid;
      // one current handover per project (a unique index holds the store to it)
      let superseded = rand() < 0.15 ? at : null;
      if (type === 'handover' && !superseded) {
        if (currentHandover.has(owner)) superseded = at;
        else currentHandover.add(owner);
      }
      const title = sentence(4 + Math.floor(rand() * 6)).slice(0, 119);
      insert.run(
        id,
        owner,
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
  // the word counts as consolidation's "term frequencies" step leaves them (database/term-df.ts)
  termDfAsConsolidated(db);
  db.close();
  // a digest as consolidation would leave it: within the 1,500-token budget by the hook's
  // estimator (about 1,300; about 1,020 by the real tokenizer), so SessionStart injects it whole.
  // (Forty lines, as before, were 2,336 estimated and 1,855 real tokens, over the budget.)
  const digests = join(home, '.agentctx', 'digests');
  mkdirSync(digests, { recursive: true });
  const lines = ['# Project context: app', ''];
  for (let i = 0; i < 22; i++) lines.push(`- [decision] ${sentence(10)} (${ids[i % ids.length]})`);
  writeFileSync(join(digests, `${projectId}.md`), lines.join('\n'));
  // nothing was retired through agentctx (the rows above were inserted as they are): stamp 0
  writeFileSync(
    join(digests, `${projectId}.digest.json`),
    JSON.stringify({
      text: lines.join('\n'),
      ids,
      tokens: 1300,
      generated_at: new Date().toISOString(),
      retire_stamp: 0,
    }),
  );
  return { home, env };
}

/** Copy fts5vocab's document counts into term_df, as `agentctx consolidate` does. */
export function termDfAsConsolidated(db) {
  db.transaction(() => {
    db.prepare('DELETE FROM term_df').run();
    const terms = db
      .prepare('INSERT INTO term_df (term, doc) SELECT term, doc FROM records_fts_vocab')
      .run().changes;
    const { maxRowid, records } = db
      .prepare('SELECT COALESCE(MAX(rowid), 0) AS maxRowid, COUNT(*) AS records FROM records')
      .get();
    db.prepare("INSERT OR REPLACE INTO term_df_meta (key, value) VALUES ('built', ?)").run(
      JSON.stringify({ maxRowid, records, terms }),
    );
  })();
}

/** Distinct records, and the share of records holding each word of the short prompt. */
export function storeLoad(home) {
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

export function benchEnv(home) {
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

/**
 * A store of `n` records in `<dir>/s<n>`: its own home and a repository folder whose origin
 * gives the project id the records are written under.
 */
export function prepareStore(dir, n) {
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
  return { env, home, repo: linkRepo, buildMs, load, projectId };
}

export const SHORT = 'why do we retry the webhook queue?';
export const LONG =
  'I am seeing failures when the stripe webhook handler retries an invoice payload after a timeout, and the redis lock seems to be released before the postgres transaction commits; can you check how we configured the backoff, whether the queue worker honours the rate limit, and what we decided about idempotency keys for billing events?';
