import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HYBRID_TUNING, hybridSearch } from '../core/retrieval/hybrid.js';
import { search } from '../core/retrieval/search.js';
import { openDb } from '../database/open.js';
import { openVectorStore } from '../database/vectors/open.js';
import { MODELS } from '../embed/models.js';
import { recordEmbeddingText } from '../embed/record-text.js';
import { loadTransformersEmbedder } from '../embed/transformers.js';
import type { ContextRecord } from '../shared/types.js';
import type { BenchDataset } from './dataset.js';
import { type Metrics, meanMetrics, scoreQuery } from './metrics.js';
import { loadDataset } from './run.js';

/**
 * `bench:retrieval --hybrid --model-path DIR --model NAME`: the same queries through the keyword
 * engine alone and through the hybrid re-rank (core/hybrid.ts), in one run over one store.
 */

interface HybridReport {
  dataset: string;
  model: string;
  store: string;
  records: number;
  queries: number;
  keyword: Metrics;
  hybrid: Metrics;
  categories: Record<string, { queries: number; keyword: Metrics; hybrid: Metrics }>;
  embed_ms: number;
  keyword_ms_per_query: number;
  hybrid_ms_per_query: number;
}

export async function runHybridBench(
  data: BenchDataset,
  modelPath: string,
  modelName: string,
): Promise<HybridReport> {
  const model = MODELS[modelName];
  if (!model) throw new Error(`unknown model ${modelName}; known: ${Object.keys(MODELS).join(', ')}`);
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-hybrid-'));
  const db = openDb(join(dir, 'agentctx.db'));
  const embedder = await loadTransformersEmbedder({ model, modelsDir: modelPath });
  try {
    const now = loadDataset(db, data);
    const sweep = process.env.AGENTCTX_HYBRID_SWEEP?.split(',').map(Number);
    if (sweep) {
      const [w, kd, vd, only, tier] = sweep;
      if (w !== undefined) HYBRID_TUNING.vectorWeight = w;
      if (kd !== undefined) HYBRID_TUNING.keywordDepth = kd;
      if (vd !== undefined) HYBRID_TUNING.vectorDepth = vd;
      if (only !== undefined) HYBRID_TUNING.candidatesOnly = only === 1;
      if (tier !== undefined) HYBRID_TUNING.tierWidth = tier;
    }
    const { store } = await openVectorStore(db, model.dims);
    const t0 = performance.now();
    const rows = db.prepare('SELECT * FROM records').all() as ContextRecord[];
    for (let i = 0; i < rows.length; i += 64) {
      const batch = rows.slice(i, i + 64);
      const vecs = await embedder.embedDocuments(batch.map(recordEmbeddingText));
      db.transaction(() => {
        for (const [j, r] of batch.entries()) store.upsert(r.id, vecs[j]!);
      })();
    }
    const embedMs = performance.now() - t0;
    const kw: Metrics[] = [];
    const hy: Metrics[] = [];
    const cats = new Map<string, { keyword: Metrics[]; hybrid: Metrics[] }>();
    let kwMs = 0;
    let hyMs = 0;
    for (const q of data.queries) {
      let t = performance.now();
      const k = search(db, { projectId: q.project, query: q.query, limit: 10, now });
      kwMs += performance.now() - t;
      t = performance.now();
      const qv = await embedder.embedQuery(q.query);
      const h = hybridSearch(db, { projectId: q.project, query: q.query, limit: 10, now }, qv, store);
      hyMs += performance.now() - t;
      const km = scoreQuery(
        k.hits.map((x) => x.record.id),
        q.relevant,
      );
      const hm = scoreQuery(
        h.hits.map((x) => x.record.id),
        q.relevant,
      );
      kw.push(km);
      hy.push(hm);
      const c = cats.get(q.category) ?? { keyword: [], hybrid: [] };
      c.keyword.push(km);
      c.hybrid.push(hm);
      cats.set(q.category, c);
    }
    const n = Math.max(1, data.queries.length);
    const categories: HybridReport['categories'] = {};
    for (const [name, c] of [...cats].sort((a, b) => a[0].localeCompare(b[0])))
      categories[name] = {
        queries: c.keyword.length,
        keyword: meanMetrics(c.keyword),
        hybrid: meanMetrics(c.hybrid),
      };
    return {
      dataset: data.name,
      model: model.name,
      store: store.kind,
      records: data.records.length,
      queries: data.queries.length,
      keyword: meanMetrics(kw),
      hybrid: meanMetrics(hy),
      categories,
      embed_ms: Math.round(embedMs),
      keyword_ms_per_query: Math.round((kwMs / n) * 1000) / 1000,
      hybrid_ms_per_query: Math.round((hyMs / n) * 1000) / 1000,
    };
  } finally {
    await embedder.dispose();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function row(label: string, m: Metrics): string {
  const f = (v: number) => v.toFixed(3).padStart(7);
  return `${label.padEnd(30)}${f(m.r3)}${f(m.r5)}${f(m.r10)}${f(m.ndcg10)}${f(m.mrr)}`;
}

export function formatHybridReport(r: HybridReport): string {
  const lines = [
    `dataset ${r.dataset}: ${r.records} records, ${r.queries} queries; model ${r.model}, store ${r.store}`,
    `embedding ${r.records} records: ${r.embed_ms} ms; per query: keyword ${r.keyword_ms_per_query} ms, hybrid ${r.hybrid_ms_per_query} ms (incl. query embedding)`,
    `${''.padEnd(30)}${['R@3', 'R@5', 'R@10', 'NDCG10', 'MRR'].map((h) => h.padStart(7)).join('')}`,
    row('keyword only', r.keyword),
    row('hybrid (coverage tiers)', r.hybrid),
  ];
  for (const [name, c] of Object.entries(r.categories)) {
    lines.push(row(`${name} (${c.queries}) keyword`, c.keyword));
    lines.push(row(`${name} (${c.queries}) hybrid`, c.hybrid));
  }
  return lines.join('\n');
}
