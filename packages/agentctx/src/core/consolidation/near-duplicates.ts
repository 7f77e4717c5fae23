import { buildMatchExpression } from '../../database/fts-match.js';
import type { Db } from '../../database/open.js';
import { termDfLookup } from '../../database/term-df.js';
import { extractTerms, type QueryTerm, termKey } from '../../text/terms.js';
import { saveNearBatch } from './apply.js';
import { buildDiceIndex, type DiceIndex } from './dice-index.js';
import { SKIP_TYPES, termSet } from './duplicates.js';
import {
  batches,
  NEAR_BATCH,
  type NearHit,
  type NearPair,
  type NearRow,
  nearPairs,
  queryDfCap,
  type RunState,
  rarestTerms,
} from './plan.js';

/**
 * The keyword near-duplicate scan: records newer than the saved watermark are each searched
 * with their rarest terms among current records of the same namespace and type; batches commit
 * with the watermark, so a killed or timed-out scan resumes where it stopped.
 */

const NEAR_TERMS = 4;
const NEAR_LIMIT = 8;

interface NearScanDeps {
  db: Db;
  projectId: string;
  namespaces: readonly string[];
  /** The run's state; its watermark advances with each committed batch. */
  state: RunState;
  nowIso: string;
  elapsed: () => number;
  budgetMs: number;
  onProgress?: (done: number, total: number) => void;
  committed?: () => void;
  /**
   * From how many records to scan on, the Dice pre-filter (dice-index.ts) is built first: it
   * costs a pass over every current record, and saves a query for each record with no possible
   * partner. Either way the scan finds the same candidates.
   */
  prefilterFrom?: number;
}

const PREFILTER_FROM = 200;

/** The current records past the watermark, in (recorded_at, id) order. */
function recordsAfter(db: Db, namespaces: readonly string[], watermark: string | undefined): NearRow[] {
  const nsSql = namespaces.map(() => '?').join(',');
  const [afterAt, afterId] = (watermark ?? '|').split('|') as [string, string];
  return db
    .prepare(
      `SELECT id, project_id, type, title, body, recorded_at FROM records
       WHERE project_id IN (${nsSql}) AND superseded_at IS NULL AND type NOT IN ('handover', 'profile')
         AND (recorded_at > ? OR (recorded_at = ? AND id > ?))
       ORDER BY recorded_at, id`,
    )
    .all(...namespaces, afterAt, afterAt, afterId) as NearRow[];
}

/** A term's document count, asked once per distinct term. */
function cachedDf(db: Db): (t: QueryTerm) => number {
  const lookup = termDfLookup(db);
  const cache = new Map<string, number>();
  return (t) => {
    const key = termKey(t);
    let n = cache.get(key);
    if (n === undefined) {
      n = lookup(t);
      cache.set(key, n);
    }
    return n;
  };
}

/** A record's term set, kept for the records seen lately. */
function cachedTerms(): (r: NearRow) => Set<string> {
  const cache = new Map<string, Set<string>>();
  return (r) => {
    let set = cache.get(r.id);
    if (!set) {
      set = termSet(r);
      if (cache.size > 50_000) cache.clear();
      cache.set(r.id, set);
    }
    return set;
  };
}

/** Record near-duplicate pairs as merge candidates; 'time' when the time box ran out first. */
export function scanNearDuplicates(deps: NearScanDeps): 'done' | 'time' {
  const { db, state } = deps;
  const todo = recordsAfter(db, deps.namespaces, state.near_dup_after);
  const similar = db.prepare(
    `SELECT r.id, r.title, r.body, r.recorded_at, -bm25(records_fts, 2.0, 1.0) AS rel
     FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
     WHERE records_fts MATCH ? AND r.project_id = ? AND r.type = ? AND r.superseded_at IS NULL
     ORDER BY bm25(records_fts, 2.0, 1.0) LIMIT ${NEAR_LIMIT}`,
  );
  const df = cachedDf(db);
  const corpus = (db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM records').get() as { n: number }).n;
  const maxDf = queryDfCap(corpus);
  const termsOf = cachedTerms();
  let index: DiceIndex | null = null;
  if (todo.length > 0 && todo.length >= (deps.prefilterFrom ?? PREFILTER_FROM)) {
    const all = deps.state.near_dup_after === undefined ? todo : recordsAfter(db, deps.namespaces, undefined);
    index = buildDiceIndex(all, termSet); // uncached: the sets are read once, into numbers
  }
  for (const { items: batch, done } of batches(todo, NEAR_BATCH)) {
    if (deps.elapsed() > deps.budgetMs) return 'time';
    const found: NearPair[] = [];
    for (const a of batch) {
      if (SKIP_TYPES.has(a.type)) continue;
      if (index && !index.mayHavePartner(a.id)) continue; // no record it could pair with
      const match = buildMatchExpression(
        rarestTerms(extractTerms(`${a.title}\n${a.body}`), df, maxDf, NEAR_TERMS),
      );
      if (!match) continue;
      found.push(...nearPairs(a, similar.all(match, a.project_id, a.type) as NearHit[], termsOf));
    }
    const last = batch[batch.length - 1]!;
    const watermark = `${last.recorded_at}|${last.id}`;
    saveNearBatch(db, deps.projectId, found, watermark, deps.nowIso);
    state.near_dup_after = watermark;
    deps.onProgress?.(done, todo.length);
    deps.committed?.();
  }
  return 'done';
}
