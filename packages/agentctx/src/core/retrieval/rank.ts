import { ageInDays } from '../../shared/age.js';
import type { ContextRecord, RecordType } from '../../shared/types.js';
import { type DateHint, inDateHint, isDateWord } from '../../text/dates.js';
import { foldText, type QueryTerm, textHasTerm } from '../../text/terms.js';
import type { SearchHit } from './search-types.js';
import { statesTime } from './when.js';

/**
 * Ranking for `search`: BM25 relevance blended with IDF-weighted coverage of the query, then
 * boosts by type, recency, pinning, confidence, derived score and a matching date.
 */

/**
 * Scoring knobs, chosen on the retrieval benchmark (LoCoMo dev + bench/dev-memory.json): title
 * and body weigh the same in BM25; half of the rank comes from IDF-weighted coverage; decaying
 * types keep at least 80% of their weight however old; a record from the month/year the query
 * names gets ×1.2. `whenBoost` (×1.2 for a record that states a time, when the query asks
 * when or how long; see when.ts) was chosen on the tuning splits only (LoCoMo conversations
 * 1–3, half of dev-memory) and checked on the validation splits. Exported only so the
 * benchmark can sweep them.
 */
export const TUNING = {
  candidates: 100,
  titleWeight: 1.0,
  bodyWeight: 1.0,
  coverageWeight: 0.5,
  recencyFloor: 0.8,
  typeWeights: true,
  dateBoost: 1.2,
  whenBoost: 1.2,
};

const TYPE_WEIGHT: Record<RecordType, number> = {
  decision: 1.0,
  convention: 1.0,
  bugfix: 0.95,
  discovery: 0.9,
  preference: 0.9,
  handover: 0.85,
  profile: 0.8,
};

/** Types whose relevance fades with age (CONTRACTS.md §types); decisions and conventions never decay. */
const HALF_LIFE_DAYS: Partial<Record<RecordType, number>> = {
  discovery: 120,
  bugfix: 120,
  preference: 365,
  handover: 30,
};

/** A candidate record with its raw BM25 relevance (0 when not from FTS). */
export type CandidateRow = ContextRecord & { rel: number };

/** BM25-style inverse document frequency, never below a small positive floor. */
export function idf(df: number, n: number): number {
  const d = Math.max(df, 1);
  return Math.max(0.05, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
}

/** Per-term weights for coverage: IDF when known, otherwise equal. */
export type TermWeights = (t: QueryTerm) => number;

/** Score and order the candidates; scores are relative to the best hit (see SearchHit.score). */
export function rerank(
  rows: CandidateRow[],
  terms: QueryTerm[],
  weightOf: TermWeights,
  now: Date,
  when: DateHint | null = null,
  askingWhen = false,
): SearchHit[] {
  const best = rows.reduce((m, r) => Math.max(m, r.rel), 0);
  const total = terms.reduce((s, t) => s + weightOf(t), 0);
  const cw = TUNING.coverageWeight;
  const hits = rows.map((row) => {
    const { rel, ...record } = row;
    const text = foldText(`${record.title}\n${record.body}`);
    let matched = 0;
    let got = 0;
    const inPeriod = when !== null && inDateHint(record.valid_from, when);
    for (const t of terms) {
      // "in June": a record from June matches the month word even if its text never says it
      if (textHasTerm(text, t) || (inPeriod && isDateWord(t.word))) {
        matched++;
        got += weightOf(t);
      }
    }
    const coverage = total > 0 ? Math.min(1, got / total) : 0;
    const half = HALF_LIFE_DAYS[record.type];
    const floor = TUNING.recencyFloor;
    const recency = half ? floor + (1 - floor) * 0.5 ** (ageInDays(record.valid_from, now) / half) : 1;
    const confidence = record.confidence === 'inferred' ? 0.8 : 1;
    const pin = record.pinned ? 1.15 : 1;
    const derived = Math.min(1.5, Math.max(0.5, record.score ?? 1));
    // With no BM25 (LIKE rung) coverage alone orders the hits.
    const relNorm = best > 0 ? Math.max(0, rel) / best : coverage;
    const score =
      ((1 - cw) * relNorm + cw * coverage) *
      (TUNING.typeWeights ? TYPE_WEIGHT[record.type] : 1) *
      recency *
      confidence *
      pin *
      (0.8 + 0.2 * derived) *
      (inPeriod ? TUNING.dateBoost : 1) *
      (askingWhen && statesTime(text) ? TUNING.whenBoost : 1);
    return { record: record as ContextRecord, score, relevance: rel, matched, coverage };
  });
  hits.sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? 1 : -1));
  const top = hits[0]?.score || 1;
  for (const h of hits) h.score = Math.round((h.score / top) * 1000) / 1000;
  for (const h of hits) h.coverage = Math.round(h.coverage * 1000) / 1000;
  return hits;
}
