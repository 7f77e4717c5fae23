import type { Confidence, ContextRecord } from '../../shared/types.js';
import { extractTerms } from '../../text/terms.js';

/**
 * Duplicate detection within one namespace and type. Handovers and profile facts are keyed
 * types with their own rule-based supersession, so they are never scanned.
 *
 * Exact duplicates: the same title and body once normalised (NFKC, lower case, punctuation and
 * whitespace folded). They are merged: every newer copy is superseded *into* the oldest one,
 * which keeps its id and absorbs the copies' sightings (CONTRACTS.md §confidence: repeated
 * sightings reinforce).
 *
 * Near duplicates: found with FTS5 (the rarest terms of a record, BM25) and scored by
 * `similarity` below. They are only recorded as merge candidates for the developer.
 */

export const SKIP_TYPES: ReadonlySet<string> = new Set(['handover', 'profile']);
export const NEAR_DUPLICATE = 0.6;

export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export type DupInput = Pick<
  ContextRecord,
  | 'id'
  | 'project_id'
  | 'type'
  | 'title'
  | 'body'
  | 'pinned'
  | 'confidence'
  | 'reinforce_count'
  | 'access_count'
  | 'last_accessed'
  | 'recorded_at'
>;

export interface MergePlan {
  keeper: string;
  /** Newer copies, superseded by the keeper. */
  copies: string[];
  /** What the keeper becomes. */
  pinned: number;
  confidence: Confidence;
  reinforce_count: number;
  access_count: number;
  last_accessed: string | null;
}

function older(a: DupInput, b: DupInput): number {
  return a.recorded_at < b.recorded_at ? -1 : a.recorded_at > b.recorded_at ? 1 : a.id < b.id ? -1 : 1;
}

/**
 * Pure: the merges of exact duplicates among current records. Each copy counts as one more
 * sighting of the keeper; an inferred keeper becomes reinforced at `threshold` sightings or
 * when a copy is explicit or reinforced (confirmation). Confidence never goes down.
 */
export function planExactMerges(records: readonly DupInput[], threshold: number): MergePlan[] {
  const groups = new Map<string, DupInput[]>();
  for (const r of records) {
    if (SKIP_TYPES.has(r.type)) continue;
    const key = `${r.project_id}\u0000${r.type}\u0000${normalizeText(r.title)}\u0000${normalizeText(r.body)}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  const plans: MergePlan[] = [];
  for (const g of groups.values()) {
    if (g.length < 2) continue;
    g.sort(older);
    const [keep, ...copies] = g as [DupInput, ...DupInput[]];
    const count = keep.reinforce_count + copies.reduce((n, c) => n + 1 + c.reinforce_count, 0);
    let confidence: Confidence = keep.confidence;
    if (confidence === 'inferred') {
      const confirmed = copies.some((c) => c.confidence !== 'inferred');
      if (confirmed || count >= threshold) confidence = 'reinforced';
    }
    const accessed = [keep, ...copies].map((r) => r.last_accessed).filter((x): x is string => !!x);
    plans.push({
      keeper: keep.id,
      copies: copies.map((c) => c.id),
      pinned: g.some((r) => r.pinned) ? 1 : 0,
      confidence,
      reinforce_count: count,
      access_count: g.reduce((n, r) => n + (r.access_count ?? 0), 0),
      last_accessed: accessed.length ? accessed.sort().at(-1)! : null,
    });
  }
  plans.sort((a, b) => (a.keeper < b.keeper ? -1 : 1));
  return plans;
}

/** Distinct stems of a record's text. */
export function termSet(r: Pick<DupInput, 'title' | 'body'>): Set<string> {
  return new Set(extractTerms(`${r.title}\n${r.body}`, 200).map((t) => t.stem));
}

/**
 * Similarity of two records, 0..1: 0.7 × the Dice coefficient of their term sets + 0.3 × the
 * BM25 score of `b` for `a`'s query relative to `a`'s own score (capped at 1). Dice carries the
 * decision; the BM25 share rewards agreement on the rare terms that FTS weighs most.
 */
export function similarity(aTerms: Set<string>, bTerms: Set<string>, bm25Ratio: number): number {
  if (aTerms.size === 0 || bTerms.size === 0) return 0;
  let both = 0;
  for (const t of aTerms) if (bTerms.has(t)) both++;
  const dice = (2 * both) / (aTerms.size + bTerms.size);
  const ratio = Math.max(0, Math.min(1, bm25Ratio));
  return Math.round((0.7 * dice + 0.3 * ratio) * 1000) / 1000;
}
