import { upsertMergeCandidate } from '../../database/consolidation-repo.js';
import type { Db } from '../../database/open.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { SKIP_TYPES } from './duplicates.js';

/**
 * The vector near-duplicate scan: a current, embedded record whose cosine similarity to another
 * current record of the same namespace and type exceeds 0.92 becomes a merge candidate (never
 * merged without the developer: `agentctx merge`). Incremental: a watermark per project in
 * `embedding_meta` advances batch by batch, never past a record still waiting for its vector,
 * so a killed or timed-out scan resumes where it stopped and a later backfill is not missed.
 *
 * Each record past the watermark is compared with every current record of its namespace and
 * type that comes before it in (recorded_at, id) order; a pair is therefore found when its later
 * record is scanned. The comparison is in memory: a (namespace, type) group's vectors are read
 * once into one row-major Float32Array of unit rows, and a record's similarities are dot
 * products against the block of rows before it (one exact store search per record cost 454 s
 * at 10k records).
 */

export const VECTOR_NEAR_DUPLICATE = 0.92;
const BATCH = 200;
const NEIGHBOURS = 5;

type Row = { id: string; project_id: string; type: string; recorded_at: string; pending_embedding: number };

interface VectorScanDeps {
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

/** A (namespace, type) group's unit vectors, in (recorded_at, id) order. */
interface Group {
  ids: string[];
  /** id → row in `matrix`, for records that have a vector. */
  row: Map<string, number>;
  matrix: Float32Array;
}

function loadGroup(store: VectorStore, ids: readonly string[]): Group {
  const dims = store.dims;
  const kept: string[] = [];
  const vecs: Float32Array[] = [];
  for (const id of ids) {
    const v = store.get(id);
    if (!v || v.length !== dims) continue;
    kept.push(id);
    vecs.push(v);
  }
  const matrix = new Float32Array(kept.length * dims);
  const row = new Map<string, number>();
  vecs.forEach((v, r) => {
    let n = 0;
    for (let i = 0; i < dims; i++) n += v[i]! * v[i]!;
    const s = n > 0 ? 1 / Math.sqrt(n) : 0;
    const off = r * dims;
    for (let i = 0; i < dims; i++) matrix[off + i] = v[i]! * s;
    row.set(kept[r]!, r);
  });
  return { ids: kept, row, matrix };
}

/** Rows `0..r-1` of `g` whose cosine with row `r` exceeds the threshold; the best NEIGHBOURS. */
function neighboursBefore(g: Group, r: number, dims: number): { id: string; sim: number }[] {
  const m = g.matrix;
  const a = r * dims;
  const out: { id: string; sim: number }[] = [];
  let j = 0;
  // four rows at a time: the query row is read once per four dot products
  for (; j + 4 <= r; j += 4) {
    const b0 = j * dims;
    const b1 = b0 + dims;
    const b2 = b1 + dims;
    const b3 = b2 + dims;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    for (let i = 0; i < dims; i++) {
      const x = m[a + i]!;
      s0 += x * m[b0 + i]!;
      s1 += x * m[b1 + i]!;
      s2 += x * m[b2 + i]!;
      s3 += x * m[b3 + i]!;
    }
    if (s0 > VECTOR_NEAR_DUPLICATE) out.push({ id: g.ids[j]!, sim: s0 });
    if (s1 > VECTOR_NEAR_DUPLICATE) out.push({ id: g.ids[j + 1]!, sim: s1 });
    if (s2 > VECTOR_NEAR_DUPLICATE) out.push({ id: g.ids[j + 2]!, sim: s2 });
    if (s3 > VECTOR_NEAR_DUPLICATE) out.push({ id: g.ids[j + 3]!, sim: s3 });
  }
  for (; j < r; j++) {
    const b = j * dims;
    let s = 0;
    for (let i = 0; i < dims; i++) s += m[a + i]! * m[b + i]!;
    if (s > VECTOR_NEAR_DUPLICATE) out.push({ id: g.ids[j]!, sim: s });
  }
  if (out.length > NEIGHBOURS) {
    out.sort((x, y) => y.sim - x.sim || (x.id < y.id ? -1 : 1));
    out.length = NEIGHBOURS;
  }
  return out;
}

/** Where the vector scan keeps a project's watermark (in `embedding_meta`). */
export function vectorWatermarkKey(projectId: string): string {
  return `vec_dup_after:${projectId}`;
}

export function scanVectorDuplicates(deps: VectorScanDeps): { found: number; outcome: 'done' | 'time' } {
  const { db, store } = deps;
  const key = vectorWatermarkKey(deps.projectId);
  const mark =
    (db.prepare('SELECT value FROM embedding_meta WHERE key = ?').get(key) as { value: string } | undefined)
      ?.value ?? '|';
  const [afterAt, afterId] = mark.split('|') as [string, string];
  const marks = deps.namespaces.map(() => '?').join(',');
  const current = db
    .prepare(
      `SELECT id, project_id, type, recorded_at, pending_embedding FROM records
       WHERE project_id IN (${marks}) AND superseded_at IS NULL
       ORDER BY recorded_at, id`,
    )
    .all(...deps.namespaces) as Row[];
  const past = (r: Row) => r.recorded_at > afterAt || (r.recorded_at === afterAt && r.id > afterId);
  const todo = current.filter(past);
  const firstPending = todo.findIndex((r) => r.pending_embedding === 1);
  const ready = firstPending === -1 ? todo : todo.slice(0, firstPending);
  if (ready.length === 0) return { found: 0, outcome: 'done' };

  // ids of each (namespace, type) group in scan order; vectors are read on first need
  const members = new Map<string, string[]>();
  for (const r of current) {
    if (SKIP_TYPES.has(r.type)) continue;
    const k = `${r.project_id}\u0000${r.type}`;
    const list = members.get(k);
    if (list) list.push(r.id);
    else members.set(k, [r.id]);
  }
  const groups = new Map<string, Group>();
  const groupOf = (r: Row): Group | undefined => {
    const k = `${r.project_id}\u0000${r.type}`;
    let g = groups.get(k);
    if (!g) {
      const ids = members.get(k);
      if (!ids) return undefined;
      g = loadGroup(store, ids);
      groups.set(k, g);
    }
    return g;
  };
  const recordedAt = new Map(current.map((r) => [r.id, r.recorded_at]));

  const existing = db.prepare('SELECT similarity FROM merge_candidates WHERE record_a = ? AND record_b = ?');
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
      const g = groupOf(a);
      const r = g?.row.get(a.id);
      if (!g || r === undefined) continue;
      for (const h of neighboursBefore(g, r, store.dims)) pairs.push({ a, b: h.id, sim: h.sim });
    }
    const last = batch[batch.length - 1]!;
    db.transaction(() => {
      for (const p of pairs) {
        const bAt = recordedAt.get(p.b) ?? '';
        const aFirst = p.a.recorded_at < bAt || (p.a.recorded_at === bAt && p.a.id < p.b);
        const [x, y] = aFirst ? [p.a.id, p.b] : [p.b, p.a.id];
        const sim = Math.round(p.sim * 1000) / 1000;
        const had = existing.get(x, y) as { similarity: number } | undefined;
        if (had && had.similarity >= sim) continue;
        const saved = upsertMergeCandidate(db, {
          project_id: p.a.project_id,
          type: p.a.type,
          record_a: x,
          record_b: y,
          similarity: sim,
          detected_at: deps.nowIso,
        });
        if (saved) found++;
      }
      save.run(key, `${last.recorded_at}|${last.id}`);
    }).immediate();
    deps.onProgress?.(Math.min(i + BATCH, ready.length), ready.length);
    deps.committed?.();
  }
  return { found, outcome: 'done' };
}
