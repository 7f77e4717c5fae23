import type { Db } from '../../database/open.js';
import type { VectorStore } from '../../database/vectors/store.js';
import { writerSql } from '../../database/writer-filter.js';
import { type ContextRecord, GLOBAL_PROJECT } from '../../shared/types.js';
import { namespacesOf } from '../records/records.js';
import { search } from './search.js';
import type { SearchHit, SearchOptions, SearchResult } from './search-types.js';

/**
 * Hybrid retrieval: the keyword engine's candidates (unchanged, `search`) re-ranked with the
 * query's cosine similarity by coverage tiers (see HYBRID_TUNING); `rrfFuse` serves the digest. Used where a model is already loaded (the MCP server after
 * its background load, the retrieval benchmark); the hooks never come here.
 */

const RRF_K = 60;

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
 * Fusion knobs, exported for the benchmark's sweep (AGENTCTX_HYBRID_SWEEP=w,kdepth,vdepth,only,tier).
 *
 * Design ("coverage tiers"): the keyword engine's `coverage` (the IDF-weighted share of the
 * query a record matches) decides which tier a candidate is in, because keywords are the
 * stronger signal on what a record is about; records within `tierWidth` coverage of their
 * tier's best match about the same part of the query, so keywords cannot tell them apart well,
 * and inside a tier the order is keyword score (relative to the tier's best) + `vectorWeight`
 * × cosine. Tiers keep descending coverage order.
 *
 * Tuned on LoCoMo dev conversations 1–3 with the glove fixture, held out on 4–5 (figures in
 * docs/decisions/0072-hybrid-ranking.md). Plain RRF k=60 lost badly (R@3 0.388 vs keyword 0.538); rank fusion
 * of the top 20 with weight 0.3 still lost on R@3 (0.528).
 */
export const HYBRID_TUNING = {
  /** Only keyword candidates are re-ranked; false also admits the nearest vectors (coverage 0). */
  candidatesOnly: true,
  /** Weight of the raw cosine against the keyword score normalised to its tier's best. */
  vectorWeight: 3,
  /** Keyword candidates re-ranked. */
  keywordDepth: 50,
  /** Nearest vectors considered (for cosines, fill and, with candidatesOnly false, admission). */
  vectorDepth: 1000,
  /** Coverage span of one tier. */
  tierWidth: 0.1,
  /**
   * When the keyword engine returns fewer than `limit` hits (a paraphrase sharing no word with
   * its answer), the free slots go to the nearest vectors, after every keyword hit.
   */
  fillFromVectors: true,
};

interface HybridResult extends SearchResult {
  /** Whether the vector ranking took part (false: keyword-only, e.g. history searches). */
  hybrid: boolean;
}

interface Candidate {
  id: string;
  keyword: number;
  coverage: number;
  cosine: number;
}

/**
 * Order candidates by coverage tiers, then keyword score / tier best + weight × cosine within a
 * tier (see HYBRID_TUNING). Pure; ties break by id for a stable order.
 */
export function tierRank(
  candidates: readonly Candidate[],
  vectorWeight = HYBRID_TUNING.vectorWeight,
  tierWidth = HYBRID_TUNING.tierWidth,
): string[] {
  const sorted = [...candidates].sort((a, b) => b.coverage - a.coverage);
  const out: string[] = [];
  let i = 0;
  while (i < sorted.length) {
    const head = sorted[i]!.coverage;
    let j = i;
    while (j < sorted.length && head - sorted[j]!.coverage <= tierWidth + 1e-9) j++;
    const tier = sorted.slice(i, j);
    const best = Math.max(...tier.map((c) => c.keyword));
    const fused = (c: Candidate) => (best > 0 ? c.keyword / best : 0) + vectorWeight * c.cosine;
    tier.sort((a, b) => fused(b) - fused(a) || (a.id < b.id ? -1 : 1));
    for (const c of tier) out.push(c.id);
    i = j;
  }
  return out;
}

export function hybridSearch(
  db: Db,
  opts: SearchOptions,
  queryVector: Float32Array,
  vectors: VectorStore,
): HybridResult {
  const limit = Math.max(1, Math.min(Math.trunc(Number(opts.limit ?? 10)) || 10, 50));
  const keyword = search(db, { ...opts, limit: Math.max(limit, HYBRID_TUNING.keywordDepth) });
  // history searches and the degraded rungs stay keyword-only
  if (opts.history || opts.time || keyword.degraded)
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
  if (opts.writers && vhits.length > 0) {
    // the vector index knows no writers: ask the records which of these may be returned
    const w = writerSql(opts.writers);
    const allowed = new Set(
      db
        .prepare(`SELECT id FROM records WHERE id IN (SELECT value FROM json_each(?))${w.sql}`)
        .pluck()
        .all(JSON.stringify(vhits.map((h) => h.id)), ...w.args) as string[],
    );
    vhits = vhits.filter((h) => allowed.has(h.id));
  }
  const cosine = new Map(vhits.map((h) => [h.id, h.similarity]));
  const byId = new Map<string, SearchHit>(keyword.hits.map((h) => [h.record.id, h]));
  const candidates: Candidate[] = keyword.hits.map((h) => ({
    id: h.record.id,
    keyword: h.score,
    coverage: h.coverage,
    cosine: cosine.get(h.record.id) ?? 0,
  }));
  if (!HYBRID_TUNING.candidatesOnly)
    for (const h of vhits.slice(0, limit))
      if (!byId.has(h.id)) candidates.push({ id: h.id, keyword: 0, coverage: 0, cosine: h.similarity });
  const ranked = tierRank(candidates);
  if (HYBRID_TUNING.fillFromVectors && ranked.length < limit) {
    const seen = new Set(ranked);
    for (const h of vhits) {
      if (ranked.length >= limit) break;
      if (!seen.has(h.id)) ranked.push(h.id);
    }
  }
  const top = ranked.slice(0, limit);
  const missing = top.filter((id) => !byId.has(id));
  if (missing.length > 0) {
    const rows = db
      .prepare('SELECT * FROM records WHERE id IN (SELECT value FROM json_each(?))')
      .all(JSON.stringify(missing)) as ContextRecord[];
    for (const r of rows) byId.set(r.id, { record: r, score: 0, relevance: 0, matched: 0, coverage: 0 });
  }
  // score: 1 for the first hit, falling with rank (the fused order is what callers get)
  const hits = top
    .filter((id) => byId.has(id))
    .map((id, i) => ({ ...byId.get(id)!, score: Math.round((1 / (1 + i * 0.1)) * 1000) / 1000 }));
  return { hits, terms: keyword.terms, hybrid: true };
}
