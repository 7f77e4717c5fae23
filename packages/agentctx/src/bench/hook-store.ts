// The synthetic store the hook benchmarks run against (bench:hooks, profile:hook, the agent and
// plugin hook benches, bench-versus): developer records seeded through the repositories, a digest
// as consolidation would leave it, and the prompts.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../database/open.js';
import { readRetirementCounters } from '../database/retirement.js';
import type { RecordType } from '../shared/types.js';
import { BIN, benchEnv, fakeRepo, storePath } from './paths.js';
import { mulberry32, pick, pickWeighted } from './prng.js';
import { type SeedRecord, seedStore } from './seed.js';
import { DEV_WORDS, madeUpName, sentenceOf, ulidAt } from './text.js';

export const SHORT = 'why do we retry the webhook queue?';
export const LONG =
  'I am seeing failures when the stripe webhook handler retries an invoice payload after a timeout, and the redis lock seems to be released before the postgres transaction commits; can you check how we configured the backoff, whether the queue worker honours the rate limit, and what we decided about idempotency keys for billing events?';

const TYPES: readonly (readonly [RecordType, number])[] = [
  ['decision', 0.2],
  ['convention', 0.15],
  ['preference', 0.1],
  ['discovery', 0.25],
  ['bugfix', 0.2],
  ['handover', 0.05],
  ['profile', 0.05],
];
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

/** The records of a store of `n`: 80% of `projectId`, 10% another project's, 10% global. */
export function* hookRecords(projectId: string, n: number, firstIds: string[]): Generator<SeedRecord> {
  const rand = mulberry32(42);
  // ids draw from their own stream, so the text does not depend on them
  const idRand = mulberry32(4242);
  const word = () =>
    rand() < 0.7 ? pick(rand, DEV_WORDS) : (NAMES[Math.floor(NAMES.length * rand() ** 2)] as string);
  const sentence = (k: number) => sentenceOf(Array.from({ length: k }, word));
  const body = () => {
    const parts: string[] = [];
    const sentences = 2 + Math.floor(rand() * 4);
    for (let i = 0; i < sentences; i++) parts.push(sentence(6 + Math.floor(rand() * 10)));
    if (rand() < 0.3) parts.push(`See ${pick(rand, CODEY)}.`);
    return parts.join(' ');
  };
  const currentHandover = new Set<string>();
  for (let i = 0; i < n; i++) {
    const id = ulidAt(i, idRand);
    const type = pickWeighted(rand, TYPES, 'discovery');
    const at = new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString();
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
    yield {
      id,
      project_id: owner,
      type,
      title,
      body: body(),
      scope,
      confidence: rand() < 0.4 ? 'explicit' : 'inferred',
      valid_from: at,
      superseded_at: superseded,
      source: rand() < 0.5 ? 'llm_extraction' : 'cli',
      session_id: `sess-${i % 500}`,
    };
    if (firstIds.length < 40 && pid === projectId && !superseded) firstIds.push(id);
  }
}

/** Distinct records, and the share of records holding each word of the short prompt. */
function storeLoad(home: string): string {
  const db = openDb(storePath(home), { readonly: true });
  try {
    const { n, uniq } = db
      .prepare('SELECT COUNT(*) AS n, COUNT(DISTINCT body) AS uniq FROM records')
      .get() as {
      n: number;
      uniq: number;
    };
    const df = db.prepare(
      'SELECT COALESCE(SUM(doc), 0) AS d FROM records_fts_vocab WHERE term >= ? AND term < ?',
    );
    const words = ['retry', 'webhook', 'queue'].map(
      (w) => `"${w}…" in ${((100 * (df.get(w, `${w}\u{10FFFF}`) as { d: number }).d) / n).toFixed(0)}%`,
    );
    return `${uniq} distinct bodies; ${words.join(', ')} of records`;
  } finally {
    db.close();
  }
}

interface HookStore {
  env: NodeJS.ProcessEnv;
  home: string;
  repo: string;
  buildMs: number;
  load: string;
  projectId: string;
}

/**
 * A store of `n` records in `<dir>/s<n>`: its own home and a repository folder whose origin
 * gives the project id the records are written under, and a current digest.
 */
export function prepareStore(dir: string, n: number): HookStore {
  const sub = join(dir, `s${n}`);
  const home = join(sub, 'home');
  const env = benchEnv(home);
  const repo = fakeRepo(join(sub, 'repo'), 'git@github.com:acme/bench-app.git');
  // the CLI creates the store and says which project the folder is
  const status = spawnSync(process.execPath, [BIN, 'status', '--json'], { cwd: repo, env, encoding: 'utf8' });
  if (status.status !== 0) throw new Error(`agentctx status failed: ${status.stderr}`);
  const projectId = (JSON.parse(status.stdout) as { project_id: string }).project_id;
  const t0 = Date.now();
  const ids: string[] = [];
  seedStore(storePath(home), hookRecords(projectId, n, ids), { termDf: true });
  writeDigest(home, projectId, ids, mulberry32(7), readRetirementCounters(storePath(home)).begun);
  const buildMs = Date.now() - t0;
  return { env, home, repo, buildMs, load: storeLoad(home), projectId };
}

/**
 * A digest as consolidation would leave it: within the 1,500-token budget by the hook's
 * estimator (about 1,300; about 1,020 by the real tokenizer), so SessionStart injects it whole.
 * Stamped with the store's retirement count (the seeded superseded records were retired through
 * the repository, which counts them), so SessionStart takes it as current.
 */
function writeDigest(
  home: string,
  projectId: string,
  ids: readonly string[],
  rand: () => number,
  retireStamp: number,
): void {
  const digests = join(home, '.agentctx', 'digests');
  mkdirSync(digests, { recursive: true });
  const lines = ['# Project context: app', ''];
  for (let i = 0; i < 22; i++)
    lines.push(
      `- [decision] ${sentenceOf(Array.from({ length: 10 }, () => pick(rand, DEV_WORDS)))} (${ids[i % ids.length]})`,
    );
  writeFileSync(join(digests, `${projectId}.md`), lines.join('\n'));
  writeFileSync(
    join(digests, `${projectId}.digest.json`),
    JSON.stringify({
      text: lines.join('\n'),
      ids,
      tokens: 1300,
      generated_at: new Date().toISOString(),
      retire_stamp: retireStamp,
    }),
  );
}
