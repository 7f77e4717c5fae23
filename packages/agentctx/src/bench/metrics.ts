/** Retrieval metrics of one query; the benchmark averages them over queries. */
export interface Metrics {
  r3: number;
  r5: number;
  r10: number;
  ndcg10: number;
  mrr: number;
}

const METRIC_KEYS: readonly (keyof Metrics)[] = ['r3', 'r5', 'r10', 'ndcg10', 'mrr'];

function recallAt(ranked: readonly string[], relevant: ReadonlySet<string>, k: number): number {
  let hit = 0;
  for (const id of ranked.slice(0, k)) if (relevant.has(id)) hit++;
  return relevant.size ? hit / relevant.size : 0;
}

/** R@k = |relevant ∩ top-k| / |relevant|; NDCG@10 with binary gains; MRR over the top 10. */
export function scoreQuery(ranked: readonly string[], relevantIds: readonly string[]): Metrics {
  const relevant = new Set(relevantIds);
  const top = ranked.slice(0, 10);
  let dcg = 0;
  let rr = 0;
  top.forEach((id, i) => {
    if (!relevant.has(id)) return;
    dcg += 1 / Math.log2(i + 2);
    if (rr === 0) rr = 1 / (i + 1);
  });
  let ideal = 0;
  for (let i = 0; i < Math.min(10, relevant.size); i++) ideal += 1 / Math.log2(i + 2);
  return {
    r3: recallAt(ranked, relevant, 3),
    r5: recallAt(ranked, relevant, 5),
    r10: recallAt(ranked, relevant, 10),
    ndcg10: ideal ? dcg / ideal : 0,
    mrr: rr,
  };
}

/** Mean of per-query metrics, rounded to 3 decimals; zeros for an empty list. */
export function meanMetrics(list: readonly Metrics[]): Metrics {
  const out: Metrics = { r3: 0, r5: 0, r10: 0, ndcg10: 0, mrr: 0 };
  for (const m of list) for (const k of METRIC_KEYS) out[k] += m[k];
  for (const k of METRIC_KEYS) out[k] = list.length ? Math.round((out[k] / list.length) * 1000) / 1000 : 0;
  return out;
}
