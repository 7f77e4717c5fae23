import type { Db } from '../../database/open.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { ageInDays } from '../../shared/age.js';
import type { ContextRecord } from '../../shared/types.js';
import { rrfFuse } from '../retrieval/hybrid.js';

/**
 * The digest's decisions-and-conventions order when vectors exist (CONTRACTS.md
 * §rung-1: rank fusion for the digest). Two rankings of the candidates are fused by reciprocal rank
 * fusion (k = 60):  - the stored order (pinning, confidence, derived score, recency: the
 * keyword-side rank the    digest has always used), and
 *  - the vector rank: cosine similarity to what the project is working on now, the centroid of
 *    the latest handover and the records of the last 14 days.
 * The fused score is then weighted by recency (half-life 180 days, floor 0.8) and type
 * (decisions 1.0, conventions 0.95). Pinned records stay first and confirmed records stay
 * before inferred ones, as the digest promises.
 */

const TYPE_WEIGHT: Record<string, number> = { decision: 1, convention: 0.95 };
const FOCUS_DAYS = 14;
const FOCUS_MAX = 20;

function focusVector(db: Db, vectors: VectorStore, projectId: string, now: Date): Float32Array | null {
  const since = new Date(now.getTime() - FOCUS_DAYS * 86_400_000).toISOString();
  const ids = db
    .prepare(
      `SELECT id FROM (
         SELECT id, recorded_at FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL
           ORDER BY valid_from DESC LIMIT 1)
       UNION
       SELECT id FROM (
         SELECT id FROM records WHERE project_id = ? AND superseded_at IS NULL AND type != 'profile' AND recorded_at >= ?
           ORDER BY recorded_at DESC LIMIT ${FOCUS_MAX})`,
    )
    .pluck()
    .all(projectId, projectId, since) as string[];
  let sum: Float32Array | null = null;
  for (const id of ids) {
    const v = vectors.get(id);
    if (!v || v.length !== vectors.dims) continue;
    sum ??= new Float32Array(v.length);
    for (let i = 0; i < v.length; i++) sum[i]! += v[i]!;
  }
  if (!sum?.some((x) => x !== 0)) return null;
  return sum;
}

function confirmedRank(r: ContextRecord): number {
  return r.confidence === 'inferred' ? 1 : 0;
}

/** Reorder `rows` (already in stored order) by fused rank; returns them unchanged when no vectors apply. */
export function semanticDigestOrder(
  db: Db,
  vectors: VectorStore,
  projectId: string,
  rows: ContextRecord[],
  now: Date,
): ContextRecord[] {
  if (rows.length < 2) return rows;
  let focus: Float32Array | null;
  try {
    focus = focusVector(db, vectors, projectId, now);
  } catch {
    return rows;
  }
  if (!focus) return rows;
  const hits = vectors.search(focus, rows.length + FOCUS_MAX, {
    projectIds: [projectId],
    types: ['decision', 'convention'],
  });
  const inRows = new Set(rows.map((r) => r.id));
  const vectorRank = hits.map((h) => h.id).filter((id) => inRows.has(id));
  if (vectorRank.length === 0) return rows;
  const fused = rrfFuse([rows.map((r) => r.id), vectorRank]);
  const weight = (r: ContextRecord) => {
    const age = ageInDays(r.valid_from, now);
    const recency = 0.8 + 0.2 * 0.5 ** (age / 180);
    return (fused.get(r.id) ?? 0) * recency * (TYPE_WEIGHT[r.type] ?? 1);
  };
  return [...rows].sort(
    (a, b) =>
      b.pinned - a.pinned ||
      confirmedRank(a) - confirmedRank(b) ||
      weight(b) - weight(a) ||
      (a.id < b.id ? 1 : -1),
  );
}
