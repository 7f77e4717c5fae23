import type { Db } from '../../database/open.js';
import type { VectorStore } from '../../database/vectors/store.js';
import type { Embedder } from '../../embed/embedder.js';
import { recordEmbeddingText } from '../../embed/record-text.js';

/**
 * The embedding backfill (CONTRACTS.md §schema `pending_embedding`): current records still pending
 * are embedded in batches with one model load. Each batch's vectors and its `pending_embedding = 0`
 * commit in one transaction, so a killed run leaves the unfinished records pending and the next
 * run picks them up. The model is loaded only when something is pending.
 */

interface BackfillDeps {
  db: Db;
  store: VectorStore;
  /** Loads the model; called at most once, and only when a record is pending. */
  loadEmbedder: () => Promise<Embedder>;
  /** Namespaces to embed (a project and `_global`). */
  namespaces: readonly string[];
  batchSize?: number;
  budgetMs?: number;
  elapsed?: () => number;
  onProgress?: (done: number, total: number) => void;
  /** Called after every committed batch; true stops the run there (a simulated kill). */
  checkpoint?: () => boolean;
}

interface BackfillSummary {
  embedded: number;
  pending: number;
  pruned: number;
  stopped?: 'time' | 'interrupted';
  model_loaded: boolean;
  ms: number;
}

type PendingRow = { id: string; type: string; valid_from: string; title: string; body: string };

export function countPending(db: Db, namespaces: readonly string[]): number {
  const marks = namespaces.map(() => '?').join(',');
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM records WHERE pending_embedding = 1 AND superseded_at IS NULL AND project_id IN (${marks})`,
      )
      .get(...namespaces) as { n: number }
  ).n;
}

export async function backfillEmbeddings(deps: BackfillDeps): Promise<BackfillSummary> {
  const { db, store } = deps;
  const t0 = performance.now();
  const elapsed = deps.elapsed ?? (() => performance.now() - t0);
  const budget = deps.budgetMs ?? Number.POSITIVE_INFINITY;
  const size = Math.max(1, deps.batchSize ?? 64);
  const marks = deps.namespaces.map(() => '?').join(',');
  const pruned = db.transaction(() => store.prune()).immediate();
  const total = countPending(db, deps.namespaces);
  const out: BackfillSummary = { embedded: 0, pending: total, pruned, model_loaded: false, ms: 0 };
  if (total === 0) {
    out.ms = Math.round(elapsed());
    return out;
  }
  const next = db.prepare(
    `SELECT id, type, valid_from, title, body FROM records
     WHERE pending_embedding = 1 AND superseded_at IS NULL AND project_id IN (${marks}) AND rowid > ?
     ORDER BY rowid LIMIT ?`,
  );
  const rowidOf = db.prepare('SELECT rowid AS r FROM records WHERE id = ?');
  const done = db.prepare(
    'UPDATE records SET pending_embedding = 0 WHERE id = ? AND title = ? AND body = ? AND superseded_at IS NULL',
  );
  const embedder = await deps.loadEmbedder();
  out.model_loaded = true;
  let after = 0;
  for (;;) {
    if (elapsed() > budget) {
      out.stopped = 'time';
      break;
    }
    const batch = next.all(...deps.namespaces, after, size) as PendingRow[];
    if (batch.length === 0) break;
    const vectors = await embedder.embedDocuments(batch.map(recordEmbeddingText));
    db.transaction(() => {
      batch.forEach((r, i) => {
        // a record edited while its text was being embedded stays pending
        if (done.run(r.id, r.title, r.body).changes === 1) {
          store.upsert(r.id, vectors[i]!);
          out.embedded++;
        }
      });
    }).immediate();
    after = (rowidOf.get(batch[batch.length - 1]!.id) as { r: number }).r;
    deps.onProgress?.(Math.min(out.embedded, total), total);
    if (deps.checkpoint?.()) {
      out.stopped = 'interrupted';
      break;
    }
  }
  out.pending = countPending(db, deps.namespaces);
  out.ms = Math.round(elapsed());
  return out;
}
