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
/** How deep each ranking goes before fusion. */
const DEPTH = 50;

/** Reciprocal rank fusion: Σ 1 / (k + rank), rank from 1, over every list an id appears in. */
export function rrfFuse(lists: readonly (readonly string[])[], k = RRF_K): Map<string, number> {
  const out = new Map<string, number>();
  for (const list of lists) {
    list.forEach((id, i) => {
      out.set(id, (out.get(id) ?? 0) + 1 / (k + i + 1));
    });
  }
  return out;
}

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
  const keyword = search(db, { ...opts, limit: DEPTH });
  // history searches and the degraded rungs stay keyword-only
  if (opts.history || keyword.degraded)
    return { ...keyword, hits: keyword.hits.slice(0, limit), hybrid: false };
  const ns = opts.scope === 'global' ? [GLOBAL_PROJECT] : namespacesOf(opts.projectId);
  let vhits = vectors.search(queryVector, DEPTH, {
    projectIds: ns,
    ...(opts.types && opts.types.length > 0 ? { types: opts.types } : {}),
    ...(opts.excludeIds && opts.excludeIds.length > 0 ? { excludeIds: opts.excludeIds } : {}),
  });
  if (opts.onlyIds) {
    const only = new Set(opts.onlyIds);
    vhits = vhits.filter((h) => only.has(h.id));
  }
  const fused = rrfFuse([keyword.hits.map((h) => h.record.id), vhits.map((h) => h.id)]);
  const byId = new Map<string, SearchHit>(keyword.hits.map((h) => [h.record.id, h]));
  const missing = vhits.map((h) => h.id).filter((id) => !byId.has(id));
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
  const top = ranked[0]?.[1] ?? 1;
  const hits = ranked.map(([id, s]) => ({ ...byId.get(id)!, score: Math.round((s / top) * 1000) / 1000 }));
  return { hits, terms: keyword.terms, hybrid: true };
}
