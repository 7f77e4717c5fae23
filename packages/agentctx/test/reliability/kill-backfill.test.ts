import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveProject } from '../../src/app/project.js';
import { openDb } from '../../src/database/open.js';
import { BIN } from '../support/cli.js';
import {
  BENCH,
  FULL,
  figure,
  killLoop,
  rerunPastTornLock,
  SEED,
  scale,
  seeded,
  total,
} from '../support/faults.js';
import { type Comparable, comparable, expectSameOutcome } from '../support/kill-compare.js';
import { consolidateToEnd, homeWithStore } from '../support/kill-stores.js';
import { FIXTURE_MODELS } from '../support/models.js';
import { rowsOf, storeHealth } from '../support/store-check.js';
import { fakeRepo, tempDir } from '../support/tmp.js';

/**
 * kill -9 during the embedding backfill (`consolidate` with the GloVe fixture model, offline,
 * real sqlite-vec where it loads). Each batch's vectors and its `pending_embedding = 0` commit
 * together, so after a kill the store passes SQLite's and FTS5's checks, every record is either
 * embedded or still pending (never marked done without a vector), and a rerun ends with the same
 * vectors, byte for byte, and the same records as one uninterrupted run.
 */

const RECORDS = scale(400, 4000, 10_000);
const KILLS = scale(3, 12, 20);

let t: ReturnType<typeof tempDir>;
let repo: string;
let template: string;
const seededIds = new Set<string>();

function vectorsSql(path: string): string {
  const tables = rowsOf<{ name: string }>(
    path,
    "SELECT name FROM sqlite_master WHERE name IN ('records_vec', 'records_vec_js')",
  ).map((r) => r.name);
  return tables.includes('records_vec')
    ? `SELECT record_id, hex(embedding) AS v FROM records_vec WHERE record_id LIKE '01JD%' ORDER BY record_id`
    : `SELECT record_id, hex(embedding) AS v FROM records_vec_js WHERE record_id LIKE '01JD%' ORDER BY record_id`;
}

function derived(path: string): Record<string, string> {
  return {
    vectors: vectorsSql(path),
    merge_candidates:
      'SELECT project_id, type, record_a, record_b, similarity, status FROM merge_candidates ORDER BY record_a, record_b',
    // the vector scan's watermark is left out: it stops before a record still pending, so it
    // stands before or after a profile fact the run created late (kill-compare.ts)
    embedding_meta: "SELECT key, value FROM embedding_meta WHERE key NOT LIKE 'vec_dup_after:%' ORDER BY key",
  };
}

const home = (name: string) =>
  homeWithStore(t.path, name, template, {
    AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
    AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
  });

type BackfillRun = {
  finished?: boolean;
  duration_ms?: number;
  embeddings: { status: string; pending: number; ms?: number };
};

/** Records marked embedded must have a vector; a pending one may or may not (a rerun replaces it). */
function doneWithoutVector(path: string): number {
  const table = vectorsSql(path).includes('records_vec_js') ? 'records_vec_js' : 'records_vec';
  const vec = new Set(
    rowsOf<{ record_id: string }>(path, `SELECT record_id FROM ${table}`).map((r) => r.record_id),
  );
  return rowsOf<{ id: string }>(
    path,
    'SELECT id FROM records WHERE pending_embedding = 0 AND superseded_at IS NULL',
  ).filter((r) => !vec.has(r.id)).length;
}

let reference: Comparable;
let referenceMs = 0;
/** The backfill's own stretch of the reference run (model load and embedding), in ms from its start. */
let backfillWindow = { from: 0, until: 0 };
let store = '';

beforeAll(() => {
  t = tempDir('agentctx-kill-backfill-');
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/kill-backfill.git');
  template = join(t.path, 'template.db');
  const projectId = resolveProject(repo).id;
  const rand = seeded(SEED + 3);
  const db = openDb(template);
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, confidence, valid_from, recorded_at, source)
     VALUES (?, ?, ?, ?, ?, 'explicit', ?, ?, 'cli')`,
  );
  const words = [
    'parser',
    'cache',
    'queue',
    'ledger',
    'invoice',
    'session',
    'token',
    'index',
    'schema',
    'worker',
  ];
  db.transaction(() => {
    for (let i = 0; i < RECORDS; i++) {
      const a = words[Math.floor(rand() * words.length)]!;
      const b = words[Math.floor(rand() * words.length)]!;
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      const id = `01JD${String(i).padStart(22, '0')}`;
      ins.run(
        id,
        projectId,
        i % 3 ? 'discovery' : 'decision',
        `The ${a} module and the ${b} ${i % 50}`,
        `While working on feature ${i} we saw the ${a} allocate ${Math.floor(rand() * 90)} buffers for each ${b}.`,
        at,
        at,
      );
      seededIds.add(id);
    }
  })();
  db.close();
  const ref = home('reference');
  const t0 = Date.now();
  const out = consolidateToEnd<BackfillRun>(repo, ref.env);
  referenceMs = Date.now() - t0;
  // the backfill runs before the keyword steps: it ends where they begin (duration_ms of the
  // process's end) and started its own `ms` before that (model load included)
  const backfillEnd = referenceMs - (out.duration_ms ?? 0);
  backfillWindow = {
    from: Math.max(0, backfillEnd - (out.embeddings.ms ?? backfillEnd)),
    until: backfillEnd,
  };
  expect(out.embeddings.status).toBe('on');
  expect(out.embeddings.pending).toBe(0);
  expect(out.finished).toBe(true);
  store = (out.embeddings as { store?: string }).store ?? '';
  reference = comparable(ref.db, seededIds, derived(ref.db));
  expect((reference.extra.vectors ?? []).length).toBe(RECORDS);
}, 900_000);
afterAll(() => t?.cleanup());

describe('kill -9 of the embedding backfill', () => {
  it(
    `${KILLS} seeded kill points over ${RECORDS} records: integrity ok, the rerun ends with the same vectors`,
    async () => {
      let midBackfill = 0;
      let tornLockWaits = 0;
      const killedAt = await killLoop({
        kills: KILLS,
        seed: SEED + 4,
        referenceMs,
        bin: BIN,
        // kill points within the backfill itself (measured on the reference run), model load included
        from: backfillWindow.from / referenceMs,
        until: backfillWindow.until / referenceMs,
        fresh: home,
        run: (h) => ({ args: ['consolidate', '--json', '--budget-ms', '900000'], cwd: repo, env: h.env }),
        check: async (h, label) => {
          expect(storeHealth(h.db), label).toEqual({ integrity: 'ok', fts: 'ok' });
          expect(doneWithoutVector(h.db), `${label}: marked embedded without a vector`).toBe(0);
          const pending = rowsOf<{ n: number }>(
            h.db,
            'SELECT COUNT(*) AS n FROM records WHERE pending_embedding = 1',
          )[0]!.n;
          if (pending > 0 && pending < RECORDS) midBackfill++;
          const { result: rerun, waited } = await rerunPastTornLock(
            () => consolidateToEnd<BackfillRun>(repo, h.env),
            (r) => 'skipped' in r,
            join(h.env.AGENTCTX_HOME!, 'locks'),
          );
          if (waited) tornLockWaits++;
          expect(rerun.embeddings.pending).toBe(0);
          expectSameOutcome(comparable(h.db, seededIds, derived(h.db)), reference, label);
        },
      });
      const section = 'Kill -9';
      figure(section, `backfill: records to embed (GloVe fixture, ${store})`, RECORDS);
      figure(section, 'backfill: uninterrupted consolidate with backfill', referenceMs, 'ms');
      figure(
        section,
        'backfill: the backfill within the reference run, ms after start',
        `${Math.round(backfillWindow.from)}–${Math.round(backfillWindow.until)}`,
      );
      figure(section, 'backfill: kill points, ms after start', killedAt.join(', '));
      figure(section, 'backfill: kills that landed mid-backfill', `${midBackfill}/${KILLS}`);
      figure(section, 'backfill: reruns that waited out a lock torn by the kill', tornLockWaits);
      figure(
        section,
        'backfill: integrity ok, no record marked embedded without its vector',
        `${KILLS}/${KILLS}`,
      );
      figure(section, 'backfill: rerun identical (vectors byte for byte)', `${KILLS}/${KILLS}`);
      total('faults survived (kill -9 of backfill)', KILLS);
    },
    BENCH ? 3_600_000 * (FULL ? 3 : 1) : 240_000,
  );
});
