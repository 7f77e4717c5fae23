import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { baselineSearch, search } from '../core/retrieval/search.js';
import type { SearchOptions } from '../core/retrieval/search-types.js';
import { toolSearchOptions } from '../core/retrieval/tool-search.js';
import { type Db, openDb } from '../database/open.js';
import { closeRecord, insertRecord, linkSuccessor } from '../database/records-repo.js';
import type { BenchDataset } from './dataset.js';
import { type HookMetrics, type HookOutcome, hookOutcome, meanHookMetrics } from './hook-path.js';
import { type Metrics, meanMetrics, scoreQuery } from './metrics.js';

interface CategoryReport {
  queries: number;
  hook: HookMetrics;
  engine: Metrics;
  /** `ctx_search` as the MCP server runs it, keyword-only (its default limit, 10). */
  mcp: Metrics;
  baseline: Metrics;
}

interface BenchReport {
  dataset: string;
  records: number;
  queries: number;
  /** What the prompt hook injects (its own code path and settings). */
  hook: HookMetrics;
  engine: Metrics;
  /** `ctx_search` as the MCP server runs it, keyword-only (its default limit, 10). */
  mcp: Metrics;
  baseline: Metrics;
  categories: Record<string, CategoryReport>;
  /** Mean engine search time per query, milliseconds. */
  engineMsPerQuery: number;
}

/**
 * The key under which a store keeps one current record (CONTRACTS.md §keyed): a project's handover,
 * a profile record per title; null for every other type.
 */
function currentKey(r: BenchDataset['records'][number]): string | null {
  if (r.type === 'handover') return `${r.project}\u0000handover`;
  if (r.type === 'profile') return `${r.project}\u0000profile\u0000${r.title}`;
  return null;
}

/**
 * Load every record into `db` in one transaction; each dataset `project` is its own namespace.
 * As in a store, a project keeps one current handover (and one current profile record per
 * title): a dataset's older ones are loaded superseded by the next newer one, so a query whose
 * answer is an older handover is scored as the hook and the engine really see it.
 */
export function loadDataset(db: Db, data: BenchDataset): Date {
  let newest = 0;
  const order = (r: BenchDataset['records'][number]) => (currentKey(r) ? Date.parse(r.valid_from) : 0);
  const records = [...data.records].sort((a, b) => order(a) - order(b));
  const current = new Map<string, string>();
  const tx = db.transaction(() => {
    for (const r of records) {
      const t = Date.parse(r.valid_from);
      if (t > newest) newest = t;
      const key = currentKey(r);
      const before = key ? current.get(key) : undefined;
      if (before) closeRecord(db, before, new Date(t).toISOString());
      insertRecord(db, {
        id: r.id,
        project_id: r.project,
        type: r.type,
        title: r.title,
        body: r.body,
        scope: 'project',
        pinned: 0,
        confidence: 'explicit',
        reinforce_count: 0,
        valid_from: new Date(t).toISOString(),
        recorded_at: new Date(t).toISOString(),
        source: 'import',
        session_id: null,
      });
      if (!key) continue;
      if (before) linkSuccessor(db, before, r.id);
      current.set(key, r.id);
    }
  });
  tx();
  return new Date(newest);
}

/** Engine options a run may set: the prompt hook's own candidate count and postings budget. */
type EngineSettings = Pick<SearchOptions, 'candidates' | 'postingsBudget'>;

/** Run every query through the engine (`search`, as the prompt hook does) and the plain baseline. */
export function runBench(data: BenchDataset, tuning: EngineSettings = {}): BenchReport {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-'));
  const db = openDb(join(dir, 'agentctx.db'));
  try {
    const now = loadDataset(db, data);
    const hook: HookOutcome[] = [];
    const engine: Metrics[] = [];
    const mcp: Metrics[] = [];
    const baseline: Metrics[] = [];
    type Lists = { hook: HookOutcome[]; engine: Metrics[]; mcp: Metrics[]; baseline: Metrics[] };
    const byCat = new Map<string, Lists>();
    let ms = 0;
    for (const q of data.queries) {
      const t0 = performance.now();
      const res = search(db, { projectId: q.project, query: q.query, limit: 10, now, ...tuning });
      ms += performance.now() - t0;
      const e = scoreQuery(
        res.hits.map((h) => h.record.id),
        q.relevant,
      );
      const b = scoreQuery(baselineSearch(db, q.project, q.query, 10), q.relevant);
      const h = hookOutcome(db, q, now);
      const toolHits = search(db, toolSearchOptions({ projectId: q.project, query: q.query, now })).hits;
      const m = scoreQuery(
        toolHits.map((x) => x.record.id),
        q.relevant,
      );
      hook.push(h);
      engine.push(e);
      mcp.push(m);
      baseline.push(b);
      const cat = byCat.get(q.category) ?? { hook: [], engine: [], mcp: [], baseline: [] };
      cat.hook.push(h);
      cat.engine.push(e);
      cat.mcp.push(m);
      cat.baseline.push(b);
      byCat.set(q.category, cat);
    }
    const categories: Record<string, CategoryReport> = {};
    for (const [name, c] of [...byCat].sort((a, b) => a[0].localeCompare(b[0]))) {
      categories[name] = {
        queries: c.engine.length,
        hook: meanHookMetrics(c.hook),
        engine: meanMetrics(c.engine),
        mcp: meanMetrics(c.mcp),
        baseline: meanMetrics(c.baseline),
      };
    }
    return {
      dataset: data.name,
      records: data.records.length,
      queries: data.queries.length,
      hook: meanHookMetrics(hook),
      engine: meanMetrics(engine),
      mcp: meanMetrics(mcp),
      baseline: meanMetrics(baseline),
      categories,
      engineMsPerQuery: data.queries.length ? Math.round((ms / data.queries.length) * 1000) / 1000 : 0,
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function row(label: string, m: Metrics): string {
  const f = (v: number) => v.toFixed(3).padStart(7);
  return `${label.padEnd(26)}${f(m.r3)}${f(m.r5)}${f(m.r10)}${f(m.ndcg10)}${f(m.mrr)}`;
}

function hookRow(label: string, m: HookMetrics): string {
  const f = (v: number) => v.toFixed(3).padStart(7);
  return `${label.padEnd(26)}${f(m.r3)}${f(m.precision)}${f(m.injectRate)}${String(m.tokensPerPrompt).padStart(7)}`;
}

/** Which caller's path a report leads with: the prompt hook, `ctx_search`, or the engine alone. */
type BenchPath = 'hook' | 'mcp' | 'engine';

/**
 * The human-readable tables: the hook path first (path `hook`), then the engine (and, path
 * `mcp`, `ctx_search` as the MCP server runs it) and BM25.
 */
export function formatReport(r: BenchReport, path: BenchPath = 'hook'): string {
  const lines = [
    `dataset ${r.dataset}: ${r.records} records, ${r.queries} queries (engine ${r.engineMsPerQuery} ms/query)`,
  ];
  if (path === 'hook') {
    lines.push(`${''.padEnd(26)}${['R@3', 'prec', 'inject', 'tokens'].map((h) => h.padStart(7)).join('')}`);
    lines.push(hookRow('prompt hook', r.hook));
    for (const [name, c] of Object.entries(r.categories))
      lines.push(hookRow(`${name} (${c.queries}) hook`, c.hook));
  }
  lines.push(`${''.padEnd(26)}${['R@3', 'R@5', 'R@10', 'NDCG10', 'MRR'].map((h) => h.padStart(7)).join('')}`);
  lines.push(row('engine', r.engine));
  if (path === 'mcp') lines.push(row('ctx_search (MCP)', r.mcp));
  lines.push(row('baseline (BM25, OR)', r.baseline));
  for (const [name, c] of Object.entries(r.categories)) {
    lines.push(row(`${name} (${c.queries}) engine`, c.engine));
    if (path === 'mcp') lines.push(row(`${name} (${c.queries}) ctx_search`, c.mcp));
    lines.push(row(`${name} (${c.queries}) baseline`, c.baseline));
  }
  return lines.join('\n');
}
