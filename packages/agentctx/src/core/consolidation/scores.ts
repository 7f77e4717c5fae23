import { ageInDays } from '../../shared/age.js';
import type { Confidence, ContextRecord, RecordType } from '../../shared/types.js';

/**
 * The derived retrieval score (CONTRACTS.md §stored-derived), recomputed by consolidation:
 *
 *   score = relevance × access × recency × confidence × usage
 *
 * relevance  = type base (bugfix 0.95, discovery 0.9, preference 1.0, handover 1.0) × 1.25 if
 * pinned   access     = 1 + min(0.5, 0.1 × ln(1 + access_count)) × ½^(days since last access / 30)
 *                (being read lifts a record; the lift fades a month after the last read)
 *   recency    = max(0.05, ½^(age in days / half-life)); half-lives: handover 30 d,
 *                discovery and bugfix 120 d, preference 365 d (slow decay); 1 when pinned
 *   confidence = explicit 1.0, reinforced 0.9, inferred 0.6
 *   usage      = usageFactor(shown, used, contradicted) below: 1 until a record has been shown in
 *                3 sessions; then down to 0.5 for a record shown often and never used, up to
 *                1.1 for one used often
 *
 * Decisions, conventions and profile facts never decay (CONTRACTS.md §types): their score is the
 * usage factor alone, and stays as it is while there is no usage evidence. Scores are rounded to 4
 * decimals, so the same records at the same time always give the same scores and a rerun writes
 * nothing.
 */

const NEVER_DECAY: ReadonlySet<RecordType> = new Set<RecordType>(['decision', 'convention', 'profile']);

const RELEVANCE: Partial<Record<RecordType, number>> = {
  preference: 1.0,
  discovery: 0.9,
  bugfix: 0.95,
  handover: 1.0,
};

const HALF_LIFE_DAYS: Partial<Record<RecordType, number>> = {
  handover: 30,
  discovery: 120,
  bugfix: 120,
  preference: 365,
};

const CONFIDENCE_WEIGHT: Record<Confidence, number> = { explicit: 1.0, reinforced: 0.9, inferred: 0.6 };

export type ScoreInput = Pick<
  ContextRecord,
  'id' | 'type' | 'pinned' | 'confidence' | 'valid_from' | 'access_count' | 'last_accessed' | 'score'
> & {
  /** Stored usage counts (record_usage); absent = none. */
  shown_count?: number;
  used_count?: number;
  contradicted_count?: number;
};

/**
 * The usage factor's knobs: sessions a record must have been shown in before its usage moves
 * its score, the slope of the factor in the smoothed used share, and its bounds. Exported so
 * the retrieval benchmark can sweep them (bench:retrieval --usage-feedback).
 */
export const USAGE_TUNING = { minShown: 3, slope: 2.4, min: 0.5, max: 1.1 };
export const USAGE_MIN_SHOWN = USAGE_TUNING.minShown;
export const USAGE_BOUNDS = { min: USAGE_TUNING.min, max: USAGE_TUNING.max } as const;

/**
 * The usage factor: the smoothed share of showings that were used, (used + 1) / (shown + 4)
 * (a prior of one use in four showings, where the factor is 1), mapped linearly (slope 2.4)
 * and bounded to [0.5, 1.1]: shown 10 times and never used → 0.57; used in a third or more of
 * its showings → 1.1. A contradiction counts as a showing not used, twice. The gain is kept
 * small on purpose: on bench:retrieval --usage-feedback a larger one lifted records used for
 * past prompts above the relevant ones of new prompts (BENCHMARKS.md).
 */
export function usageFactor(shown: number, used: number, contradicted = 0): number {
  const t = USAGE_TUNING;
  const s = Math.max(0, shown) + Math.max(0, contradicted);
  if (s < t.minShown) return 1;
  const share = (Math.min(Math.max(0, used), s) + 1) / (s + 4);
  const f = 1 + (share - 0.25) * t.slope;
  return Math.min(t.max, Math.max(t.min, f));
}

export function computeScore(r: ScoreInput, now: Date): number | null {
  const shown = r.shown_count ?? 0;
  const contradicted = r.contradicted_count ?? 0;
  const usage = usageFactor(shown, r.used_count ?? 0, contradicted);
  if (NEVER_DECAY.has(r.type)) {
    if (shown + contradicted < USAGE_TUNING.minShown) return null;
    return Math.round(usage * 10_000) / 10_000;
  }
  const relevance = (RELEVANCE[r.type] ?? 1) * (r.pinned ? 1.25 : 1);
  const lift = Math.min(0.5, 0.1 * Math.log(1 + Math.max(0, r.access_count ?? 0)));
  const access = 1 + lift * 0.5 ** (ageInDays(r.last_accessed, now) / 30);
  const half = HALF_LIFE_DAYS[r.type];
  const recency = r.pinned || !half ? 1 : Math.max(0.05, 0.5 ** (ageInDays(r.valid_from, now) / half));
  const weight = CONFIDENCE_WEIGHT[r.confidence] ?? CONFIDENCE_WEIGHT.inferred;
  return Math.round(relevance * access * recency * weight * usage * 10_000) / 10_000;
}

interface ScoreChange {
  id: string;
  score: number;
}

/** Pure: which records' scores change at `now`. */
export function planScores(records: readonly ScoreInput[], now: Date): ScoreChange[] {
  const out: ScoreChange[] = [];
  for (const r of records) {
    const next = computeScore(r, now);
    if (next !== null && Math.abs(next - (r.score ?? 0)) >= 0.00005) out.push({ id: r.id, score: next });
  }
  return out;
}
