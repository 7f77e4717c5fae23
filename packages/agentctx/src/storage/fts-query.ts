import { STOPWORDS } from './stopwords.js';

/** One meaningful word of a query, and the FTS5 phrase that matches it and its variants. */
export interface QueryTerm {
  /** The word as the user wrote it, lower-cased. */
  word: string;
  /** The form searched for: a crude stem, matched as a prefix when long enough. */
  stem: string;
  prefix: boolean;
}

const WORD = /[\p{L}\p{N}]+/gu;
const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'edly', 'ied', 'ies', 'ers', 'ed', 'es', 'er', 'ly', 's'];
const MIN_STEM = 4;

/** A light suffix strip (the index itself is not stemmed); prefix matching brings the variants back. */
export function crudeStem(word: string): string {
  if (!/^[a-z]+$/.test(word) || word.length <= MIN_STEM) return word;
  for (const suffix of SUFFIXES) {
    if (word.endsWith(suffix) && word.length - suffix.length >= MIN_STEM) {
      let stem = word.slice(0, -suffix.length);
      if (suffix === 'ied' || suffix === 'ies') stem += 'y';
      // doubled final consonant: "running" -> "runn" -> "run"
      else if (/([b-df-hj-np-tv-z])\1$/.test(stem) && stem.length > MIN_STEM) stem = stem.slice(0, -1);
      return stem;
    }
  }
  return word;
}

/**
 * The words of arbitrary text that carry meaning, in order of first appearance: lower-cased,
 * NFKC-normalised, stop-words and one-letter tokens dropped, duplicates removed.
 */
export function extractTerms(text: string, max = 64): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const normal = String(text ?? '')
    .slice(0, 20000)
    .normalize('NFKC')
    .toLowerCase();
  for (const m of normal.matchAll(WORD)) {
    const word = m[0];
    if (word.length < 2 || word.length > 64) continue;
    if (STOPWORDS.has(word)) continue;
    if (/^\d+$/.test(word) && word.length < 3) continue;
    const stem = crudeStem(word);
    if (seen.has(stem)) continue;
    seen.add(stem);
    terms.push({ word, stem, prefix: /^[a-z]+$/.test(stem) && stem.length >= MIN_STEM });
    if (terms.length >= max) break;
  }
  return terms;
}

/** One term as an FTS5 phrase: always quoted, so nothing in it can be read as syntax. */
export function termToFts(term: QueryTerm): string {
  const quoted = `"${term.stem.replace(/"/g, '""')}"`;
  return term.prefix ? `${quoted}*` : quoted;
}

/** An FTS5 MATCH expression that ORs the terms; null when there is nothing to search for. */
export function buildMatchExpression(terms: readonly QueryTerm[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(termToFts).join(' OR ');
}

/** Does `text` (already lower-cased) contain the term at a word start? */
export function textHasTerm(lowerText: string, term: QueryTerm): boolean {
  let from = 0;
  for (;;) {
    const at = lowerText.indexOf(term.stem, from);
    if (at === -1) return false;
    const before = at === 0 ? '' : lowerText[at - 1]!;
    const after = lowerText[at + term.stem.length] ?? '';
    const startOk = before === '' || !/[\p{L}\p{N}]/u.test(before);
    const endOk = term.prefix || after === '' || !/[\p{L}\p{N}]/u.test(after);
    if (startOk && endOk) return true;
    from = at + 1;
  }
}
