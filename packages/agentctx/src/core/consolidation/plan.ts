import type { QueryTerm } from '../../text/terms.js';
import type { DriftScan } from '../drift/scan.js';
import { NEAR_DUPLICATE, similarity } from './duplicates.js';

/**
 * The pure half of a consolidation run: what each step will do, computed from the records it
 * read and `now`, with no database at hand (scores.ts and duplicates.ts hold the score and exact
 * merge plans). apply.ts writes the plans; run.ts strings the steps together.
 */

export const NEAR_BATCH = 250;

/** What a run saves for the next one (in `consolidation_runs.summary.state`). */
export interface RunState {
  /** The near-duplicate scan's watermark: `recorded_at|id` of the last record scanned. */
  near_dup_after?: string;
  /**
   * How many merge-candidate rows the run's namespaces held when the last run pruned them. The
   * rows are derived: if fewer are found at the next start, they were deleted, and both
   * near-duplicate scans start over (rebuild.ts).
   */
  candidate_rows?: number;
  /** What the last full drift scan read and found, for a rerun to reuse (drift-step.ts). */
  drift?: DriftMemo;
}

export interface DriftMemo {
  /** The memory files and the record-change counter as the scan read them. */
  fingerprint: string;
  /** The scan's history window and its oldest contradicting record (scan.ts `window`). */
  since: string;
  oldest: string | null;
  missing: number;
  contradicted: number;
  /** A digest of the drift scores the scan left stored (database/change-marks.ts). */
  scores: string;
}

export function parseState(summary: string | null | undefined): RunState {
  try {
    const v = summary ? (JSON.parse(summary) as RunState & { state?: RunState }) : {};
    return v.state ?? {};
  } catch {
    return {};
  }
}

/** `items` in slices of `size`, each with how many items are done once it is written. */
export function batches<T>(items: readonly T[], size: number): { items: T[]; done: number }[] {
  const out: { items: T[]; done: number }[] = [];
  for (let i = 0; i < items.length; i += size) {
    out.push({ items: items.slice(i, i + size), done: Math.min(i + size, items.length) });
  }
  return out;
}

/** The drift scores to write and the counts for the digest's hint. */
export interface DriftScorePlan {
  counts: { missing: number; contradicted: number };
  /** In write order: current records by coverage, then the superseded records CLAUDE.md still states. */
  scores: { id: string; score: number }[];
}

export function planDriftScores(scan: DriftScan): DriftScorePlan {
  // Without a CLAUDE.md there is nothing to be behind: no drift scores, no hint.
  if (scan.files.length === 0) return { counts: { missing: 0, contradicted: 0 }, scores: [] };
  return {
    counts: { missing: scan.missing.length, contradicted: scan.contradicted.length },
    scores: [
      ...scan.assessments.map((a) => ({ id: a.record.id, score: a.score })),
      ...scan.contradicted.map((c) => ({ id: c.superseded.id, score: 1 })),
    ],
  };
}

/** A current record as the near-duplicate scan reads it. */
export type NearRow = {
  id: string;
  project_id: string;
  type: string;
  title: string;
  body: string;
  recorded_at: string;
};

/** A record the keyword search found for another, with its BM25 relevance. */
export type NearHit = NearRow & { rel: number };

export interface NearPair {
  a: NearRow;
  b: NearRow;
  sim: number;
}

/**
 * The most records a query term may occur in. Terms in more than 2% of the store cannot tell
 * duplicates apart, and each one would make BM25 score thousands of rows: they are left out of
 * the query (not out of the similarity).
 */
export function queryDfCap(corpus: number): number {
  return Math.max(25, Math.ceil(corpus * 0.02));
}

/** The rarest terms shared with some other record: they discriminate and keep the match set small. */
export function rarestTerms(
  terms: readonly QueryTerm[],
  df: (t: QueryTerm) => number,
  maxDf: number,
  max: number,
): QueryTerm[] {
  return terms
    .map((t) => ({ t, n: df(t) }))
    .filter((x) => x.n > 1 && x.n <= maxDf) // a term only this record has cannot find another
    .sort((a, b) => a.n - b.n || (a.t.stem < b.t.stem ? -1 : 1))
    .slice(0, max)
    .map((x) => x.t);
}

/** The hits similar enough to `a` to be near duplicates (BM25 taken relative to `a`'s own). */
export function nearPairs(
  a: NearRow,
  hits: readonly NearHit[],
  termsOf: (r: NearRow) => Set<string>,
): NearPair[] {
  const self = hits.find((r) => r.id === a.id)?.rel ?? hits[0]?.rel ?? 0;
  if (self <= 0) return [];
  const found: NearPair[] = [];
  const aTerms = termsOf(a);
  for (const b of hits) {
    if (b.id === a.id) continue;
    const sim = similarity(aTerms, termsOf(b), b.rel / self);
    if (sim >= NEAR_DUPLICATE) found.push({ a, b: { ...b, project_id: a.project_id, type: a.type }, sim });
  }
  return found;
}

/** A pair as a merge candidate stores it: the older record (by recorded_at, then id) first. */
export function candidateOrder(p: NearPair): [NearRow, NearRow] {
  return p.a.recorded_at < p.b.recorded_at || (p.a.recorded_at === p.b.recorded_at && p.a.id < p.b.id)
    ? [p.a, p.b]
    : [p.b, p.a];
}
