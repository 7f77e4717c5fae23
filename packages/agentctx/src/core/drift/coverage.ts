import type { ScratchIndex } from '../../database/scratch-fts.js';
import type { ContextRecord } from '../../shared/types.js';
import { extractTerms, type QueryTerm, textHasTerm } from '../../text/terms.js';
import type { Passage } from './claudemd-files.js';
import { statement } from './record-text.js';

/**
 * Scoring one record against the memory files' passages. The record is searched in the scratch
 * index with its own terms (BM25 picks the closest passages); its coverage is the share of its
 * terms that the best passage holds, each term weighted by its inverse document frequency among
 * the passages and title terms counted double. Coverage under MATCH_COVERAGE means the record is
 * *missing*; its drift score is 1 − coverage.
 *
 * A passage is *contradicted* when it matches a record superseded recently and holds the words
 * that only the superseded version had, but not the words only its current head has.
 */

export const MATCH_COVERAGE = 0.55;
const TOP_PASSAGES = 6;
const MAX_SIGNATURE_TERMS = 24;

/** The assessment of one current record (every candidate, not just the flagged ones). */
export interface DriftAssessment {
  record: ContextRecord;
  coverage: number;
  score: number;
  best?: Passage;
}

export interface ContradictionFinding {
  superseded: ContextRecord;
  head: ContextRecord;
  passage: Passage;
}

/** The passages as searched: `index` keys are 1-based positions in `passages` and `lower`. */
export interface IndexedPassages {
  index: ScratchIndex;
  passages: Passage[];
  /** Each passage's text as stated (struck-through text removed), NFKC lower case. */
  lower: string[];
}

interface Signature {
  terms: QueryTerm[];
  weights: Map<string, number>;
}

function signature(rec: ContextRecord, index: ScratchIndex): Signature {
  const title = extractTerms(rec.title, MAX_SIGNATURE_TERMS);
  const titleStems = new Set(title.map((t) => t.stem));
  const body = extractTerms(statement(rec.body), MAX_SIGNATURE_TERMS).filter((t) => !titleStems.has(t.stem));
  const terms = [...title, ...body].slice(0, MAX_SIGNATURE_TERMS);
  const n = Math.max(1, index.size);
  const weights = new Map<string, number>();
  for (const t of terms) {
    const idf = Math.log(1 + (n + 1) / (index.docFreq(t) + 0.5));
    weights.set(t.stem, idf * (titleStems.has(t.stem) ? 2 : 1));
  }
  return { terms, weights };
}

/** Weighted share of `terms` present in `lower` (0 when there are none). */
function share(lower: string, terms: readonly QueryTerm[], weights: Map<string, number>): number {
  let got = 0;
  let all = 0;
  for (const t of terms) {
    const w = weights.get(t.stem) ?? 1;
    all += w;
    if (textHasTerm(lower, t)) got += w;
  }
  return all > 0 ? got / all : 0;
}

/**
 * The passages that still state `old` rather than its current `head`. Passages already in
 * `flagged` are skipped; the ones found here are added to it.
 */
export function contradictionsOf(
  old: ContextRecord,
  head: ContextRecord,
  p: IndexedPassages,
  flagged: Set<number>,
): ContradictionFinding[] {
  const found: ContradictionFinding[] = [];
  const sigOld = signature(old, p.index);
  const sigHead = signature(head, p.index);
  const headStems = new Set(sigHead.terms.map((t) => t.stem));
  const oldStems = new Set(sigOld.terms.map((t) => t.stem));
  const onlyOld = sigOld.terms.filter((t) => !headStems.has(t.stem));
  const onlyHead = sigHead.terms.filter((t) => !oldStems.has(t.stem));
  if (onlyOld.length === 0) return found;
  for (const hit of p.index.query(sigOld.terms, TOP_PASSAGES)) {
    if (flagged.has(hit.key)) continue;
    const text = p.lower[hit.key - 1]!;
    const matchesOld = share(text, sigOld.terms, sigOld.weights) >= MATCH_COVERAGE;
    const saysOld = share(text, onlyOld, sigOld.weights) >= 0.5;
    const saysNew = onlyHead.length > 0 && share(text, onlyHead, sigHead.weights) >= 0.5;
    if (matchesOld && saysOld && !saysNew) {
      flagged.add(hit.key);
      found.push({ superseded: old, head, passage: p.passages[hit.key - 1]! });
    }
  }
  return found;
}

/** How well the passages state `rec`, passages in `flagged` (stating a superseded version) aside. */
export function assess(
  rec: ContextRecord,
  p: IndexedPassages,
  flagged: ReadonlySet<number>,
): DriftAssessment {
  const sig = signature(rec, p.index);
  let coverage = 0;
  let best: Passage | undefined;
  for (const hit of p.index.query(sig.terms, TOP_PASSAGES + flagged.size)) {
    // text that states a superseded version does not count as stating the current one
    if (flagged.has(hit.key)) continue;
    const c = share(p.lower[hit.key - 1]!, sig.terms, sig.weights);
    if (c > coverage) {
      coverage = c;
      best = p.passages[hit.key - 1];
    }
  }
  coverage = Math.round(coverage * 1000) / 1000;
  return { record: rec, coverage, score: Math.round((1 - coverage) * 1000) / 1000, best };
}
