import { upsertMergeCandidate } from '../../storage/consolidation-repo.js';
import type { Db } from '../../storage/open.js';
import type { VectorStore } from '../../storage/vectors/store.js';
import { SKIP_TYPES } from './duplicates.js';

/**
 * The vector near-duplicate scan: a current, embedded record whose cosine similarity to another
 * current record of the same namespace and type exceeds 0.92 becomes a merge candidate (never
 * merged without the developer: `agentctx merge`). Incremental: a watermark per project in
 * `embedding_meta` advances batch by batch, never past a record still waiting for its vector,
 * so a killed or timed-out scan resumes where it stopped and a later backfill is not missed.
 */

export const VECTOR_NEAR_DUPLICATE = 0.92;
const BATCH = 200;
const NEIGHBOURS = 5;

type Row = { id: string; project_id: string; type: string; recorded_at: string; pending_embedding: number };

export interface VectorScanDeps {
  db: Db;
  store: VectorStore;
  projectId: string;
  namespaces: readonly string[];
  nowIso: string;
  elapsed: () => number;
  budgetMs: number;
  onProgress?: (done: number, total: number) => void;
  committed?: () => void;
}

export function scanVectorDuplicates(deps: VectorScanDeps): { found: number; outcome: 'done' | 'time' } {
  const { db, store } = deps;
  const key = `vec_dup_after:${deps.projectId}`;
  const mark =
    (db.prepare('SELECT value FROM embedding_meta WHERE key = ?').get(key) as { value: string } | undefined)
      ?.value ?? '|';
  const [afterAt, afterId] = mark.split('|') as [string, string];
  const marks = deps.namespaces.map(() => '?').join(',');
  const todo = db
    .prepare(
      `SELECT id, project_id, type, recorded_at, pending_embedding FROM records
       WHERE project_id IN (${marks}) AND superseded_at IS NULL
         AND (recorded_at > ? OR (recorded_at = ? AND id > ?))
       ORDER BY recorded_at, id`,
    )
    .all(...deps.namespaces, afterAt, afterAt, afterId) as Row[];
  const firstPending = todo.findIndex((r) => r.pending_embedding === 1);
  const ready = firstPending === -1 ? todo : todo.slice(0, firstPending);
  const existing = db.prepare('SELECT similarity FROM merge_candidates WHERE record_a = ? AND record_b = ?');
  const older = db.prepare('SELECT recorded_at FROM records WHERE id = ?');
  const save = db.prepare(
    'INSERT INTO embedding_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  );
  let found = 0;
  for (let i = 0; i < ready.length; i += BATCH) {
    if (deps.elapsed() > deps.budgetMs) return { found, outcome: 'time' };
    const batch = ready.slice(i, i + BATCH);
    const pairs: { a: Row; b: string; sim: number }[] = [];
    for (const a of batch) {
      if (SKIP_TYPES.has(a.type)) continue;
      const v = store.get(a.id);
      if (!v) continue;
      const hits = store.search(v, NEIGHBOURS, {
        projectIds: [a.project_id],
        types: [a.type],
        excludeIds: [a.id],
      });
      for (const h of hits)
        if (h.similarity > VECTOR_NEAR_DUPLICATE) pairs.push({ a, b: h.id, sim: h.similarity });
    }
    const last = batch[batch.length - 1]!;
    db.transaction(() => {
      for (const p of pairs) {
        const bAt = (older.get(p.b) as { recorded_at: string } | undefined)?.recorded_at ?? '';
        const aFirst = p.a.recorded_at < bAt || (p.a.recorded_at === bAt && p.a.id < p.b);
        const [x, y] = aFirst ? [p.a.id, p.b] : [p.b, p.a.id];
        const sim = Math.round(p.sim * 1000) / 1000;
        const had = existing.get(x, y) as { similarity: number } | undefined;
        if (had && had.similarity >= sim) continue;
        upsertMergeCandidate(db, {
          project_id: p.a.project_id,
          type: p.a.type,
          record_a: x,
          record_b: y,
          similarity: sim,
          detected_at: deps.nowIso,
        });
        found++;
      }
      save.run(key, `${last.recorded_at}|${last.id}`);
    }).immediate();
    deps.onProgress?.(Math.min(i + BATCH, ready.length), ready.length);
    deps.committed?.();
  }
  return { found, outcome: 'done' };
}
