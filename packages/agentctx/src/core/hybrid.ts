import type { Db } from '../storage/open.js';
import type { VectorStore } from '../storage/vectors/store.js';
import { namespacesOf } from './records.js';
import { type SearchHit, type SearchOptions, type SearchResult, search } from './retrieval.js';
import { type ContextRecord, GLOBAL_PROJECT } from './types.js';

/**
 * Hybrid retrieval: the keyword engine's ranking (unchanged, `search`) fused with a vector
 * ranking by reciprocal rank fusion. Used where a model is already loaded (the MCP server after
 * its background load, the retrieval benchmark); the hooks never come here.
 */

export const RRF_K = 60;

/** Reciprocal rank fusion: Σ 1 / (k + rank), rank from 1, over every list an id appears in. */
export function rrfFuse(
  lists: readonly (readonly string[])[],
  k = RRF_K,
  weights: readonly number[] = [],
): Map<string, number> {
  const out = new Map<string, number>();
  lists.forEach((list, l) => {
    const w = weights[l] ?? 1;
    list.forEach((id, i) => {
      out.set(id, (out.get(id) ?? 0) + w / (k + i + 1));
    });
  });
  return out;
}

/**
 * Fusion knobs, exported for the benchmark's sweep (AGENTCTX_HYBRID_SWEEP=w,kdepth,vdepth,only).
 * Measured on LoCoMo dev with the glove fixture, plain RRF (weight 1, vector-only hits admitted)
 * lost to the tuned keyword engine (R@3 0.388 vs 0.538); the least harmful setting found re-ranks
 * the top 20 keyword candidates with a vector rank weighted 0.3 (R@3 0.528, R@5 0.592 vs 0.587).
 */
export const HYBRID_TUNING = {
  candidatesOnly: true,
  vectorWeight: 0.3,
  keywordDepth: 20,
  vectorDepth: 1000,
  /**
   * When the keyword engine returns fewer than `limit` hits (a paraphrase sharing no word with
   * its answer), the free slots go to the nearest vectors, after every keyword hit.
   */
  fillFromVectors: true,
};

export interface HybridResult extends SearchResult {
  /** Whether the vector ranking took part (false: keyword-only, e.g. history searches). */
  hybrid: boolean;
}

export function hybridSearch(
  db: Db,
  opts: SearchOptions,
  queryVector: Float32Array,
  vectors: VectorStore,
): HybridResult {
  const limit = Math.max(1, Math.min(Math.trunc(Number(opts.limit ?? 10)) || 10, 50));
  const keyword = search(db, { ...opts, limit: HYBRID_TUNING.keywordDepth });
  // history searches and the degraded rungs stay keyword-only
  if (opts.history || keyword.degraded)
    return { ...keyword, hits: keyword.hits.slice(0, limit), hybrid: false };
  const ns = opts.scope === 'global' ? [GLOBAL_PROJECT] : namespacesOf(opts.projectId);
  let vhits = vectors.search(queryVector, HYBRID_TUNING.vectorDepth, {
    projectIds: ns,
    ...(opts.types && opts.types.length > 0 ? { types: opts.types } : {}),
    ...(opts.excludeIds && opts.excludeIds.length > 0 ? { excludeIds: opts.excludeIds } : {}),
  });
  if (opts.onlyIds) {
    const only = new Set(opts.onlyIds);
    vhits = vhits.filter((h) => only.has(h.id));
  }
  const allVectorHits = vhits;
  if (HYBRID_TUNING.candidatesOnly) {
    const kw = new Set(keyword.hits.map((h) => h.record.id));
    vhits = vhits.filter((h) => kw.has(h.id));
  }
  const fused = rrfFuse([keyword.hits.map((h) => h.record.id), vhits.map((h) => h.id)], RRF_K, [
    1,
    HYBRID_TUNING.vectorWeight,
  ]);
  const byId = new Map<string, SearchHit>(keyword.hits.map((h) => [h.record.id, h]));
  const fill: string[] = [];
  if (HYBRID_TUNING.fillFromVectors && fused.size < limit) {
    for (const h of allVectorHits) {
      if (fused.size + fill.length >= limit) break;
      if (!fused.has(h.id)) fill.push(h.id);
    }
  }
  const missing = [...vhits.map((h) => h.id), ...fill].filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const rows = db
      .prepare('SELECT * FROM records WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(missing)) as ContextRecord[];
    for (const r of rows) byId.set(r.id, { record: r, score: 0, relevance: 0, matched: 0, coverage: 0 });
  }
  const ranked = [...fused.entries()]
    .filter(([id]) => byId.has(id))
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? 1 : -1))
    .slice(0, limit);
  // filled hits rank after every fused one, in vector order
  const floor = ranked.length > 0 ? ranked[ranked.length - 1]![1] : 1;
  fill.forEach((id, i) => {
    if (byId.has(id)) ranked.push([id, floor / (2 + i)]);
  });
  const top = ranked[0]?.[1] ?? 1;
  const hits = ranked.map(([id, s]) => ({ ...byId.get(id)!, score: Math.round((s / top) * 1000) / 1000 }));
  return { hits, terms: keyword.terms, hybrid: true };
}
