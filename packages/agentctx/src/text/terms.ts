import { STOPWORDS } from './stopwords.js';

/** One meaningful word of a query, and the FTS5 phrase that matches it and its variants. */
export interface QueryTerm {
  /** The word as the user wrote it, lower-cased. */
  word: string;
  /** The form searched for: a crude stem, matched as a prefix when long enough. */
  stem: string;
  prefix: boolean;
  /** Exact word forms matched instead of `stem` (short words: "pet" -> pet, pets). */
  forms?: string[];
  /**
   * Exact word forms matched besides the `stem` prefix: the y→i spellings a prefix cannot
   * reach ("retry"* misses "retries" and "retried"; see `yVariants`).
   */
  variants?: string[];
}

/**
 * The y→i inflections of a stem ending in consonant + y: "retry" -> retries, retried, retrier,
 * retriers. Exact words, not a "retri" prefix, which would also match "retrieve" and "retrieval".
 */
function yVariants(stem: string): string[] {
  if (!/^[a-z]+[^aeiouy]y$/.test(stem)) return [];
  const base = stem.slice(0, -1);
  return [`${base}ies`, `${base}ied`, `${base}ier`, `${base}iers`];
}

/** A key that tells two terms apart by everything they match (caches of counts use it). */
export function termKey(t: QueryTerm): string {
  return `${t.prefix ? '*' : '='}${t.stem}\u0000${t.forms?.join(',') ?? ''}\u0000${t.variants?.join(',') ?? ''}`;
}

const WORD = /[\p{L}\p{N}]+/gu;
/**
 * ASCII text needs neither NFKC nor Unicode property classes (compiling those is about a
 * millisecond of a cold hook): its letters and digits are exactly [a-z0-9] once lower-cased.
 */
const ASCII = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;

/** Lower-cased and NFKC-normalised (ASCII text only lower-cased: it is already NFKC). */
export function foldText(text: string): string {
  return ASCII.test(text) ? text.toLowerCase() : text.normalize('NFKC').toLowerCase();
}
const SUFFIXES = ['ations', 'ation', 'ings', 'ing', 'edly', 'ied', 'ies', 'ers', 'ed', 'es', 'er', 'ly', 's'];
const MIN_STEM = 4;

/** A light suffix strip (the index itself is not stemmed); prefix matching brings the variants back. */
export function crudeStem(word: string): string {
  if (!/^[a-z]+$/.test(word)) return word;
  // short plurals: "pets" -> "pet", "kids" -> "kid" (not "bus", "this", "class")
  if (word.length === 4 && /[^su]s$/.test(word) && !/[^aeiou]is$/.test(word)) return word.slice(0, 3);
  if (word.length <= MIN_STEM) return word;
  if (word.length <= 6 && word.endsWith('ing') && /[^aeiou][aeiou][^aeiouwxy]$/.test(word.slice(0, -3)))
    return `${word.slice(0, -3)}e`; // "hiking" -> "hike"
  // a silent final e: "pursue" -> "pursu" so that "pursuing" and "pursued" match too
  if (/[^aeiouy]e$|ue$/.test(word) && word.length - 1 >= MIN_STEM + 1) return word.slice(0, -1);
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

/** Regular inflections of a three-letter word: "pet" -> pet, pets, peted, peting, petted, petting. */
export function inflections(w: string): string[] {
  const out = new Set([w, `${w}s`]);
  if (w.endsWith('e')) {
    out.add(`${w}d`);
    out.add(`${w.slice(0, -1)}ing`);
  } else if (/(s|x|z|ch|sh)$/.test(w)) out.add(`${w}es`);
  else if (w.endsWith('y') && !/[aeiou]y$/.test(w)) {
    out.add(`${w.slice(0, -1)}ies`);
    out.add(`${w.slice(0, -1)}ied`);
  } else {
    out.add(`${w}ed`);
    out.add(`${w}ing`);
    if (/^[^aeiou]*[aeiou][^aeiouwxy]$/.test(w)) {
      const d = w + w.at(-1);
      out.add(`${d}ed`);
      out.add(`${d}ing`);
    }
  }
  return [...out];
}

/**
 * The words of arbitrary text that carry meaning, in order of first appearance: lower-cased,
 * NFKC-normalised, stop-words and one-letter tokens dropped, duplicates removed.
 */
export function extractTerms(text: string, max = 256): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const normal = foldText(String(text ?? '').slice(0, 20000));
  for (const m of normal.matchAll(ASCII.test(normal) ? ASCII_WORD : WORD)) {
    const word = m[0];
    if (word.length < 2 || word.length > 64) continue;
    if (STOPWORDS.has(word)) continue;
    if (/^\d+$/.test(word) && word.length < 3) continue;
    const stem = crudeStem(word);
    // "likely" -> "like": a stem that is itself a stop-word carries no meaning either
    if (seen.has(stem) || STOPWORDS.has(stem)) continue;
    seen.add(stem);
    const alpha = /^[a-z]+$/.test(stem);
    if (alpha && stem.length === 3) {
      terms.push({ word, stem, prefix: false, forms: inflections(stem) });
    } else {
      const prefix = alpha && stem.length >= MIN_STEM;
      const variants = prefix ? yVariants(stem) : [];
      terms.push(variants.length > 0 ? { word, stem, prefix, variants } : { word, stem, prefix });
    }
    if (terms.length >= max) break;
  }
  return terms;
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

function isWordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if (c < 128) return (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || (c >= 65 && c <= 90);
  return WORD_CHAR.test(ch);
}

/** How often `text` (already lower-cased) contains the term as a word (prefix terms: a word start). */
export function countTerm(lowerText: string, term: QueryTerm, max = 50): number {
  if (term.forms && term.forms.length > 0) {
    let n = 0;
    for (const f of term.forms)
      if (n < max) n += countTerm(lowerText, { word: f, stem: f, prefix: false }, max - n);
    return n;
  }
  let n = countStem(lowerText, term, max);
  for (const v of term.variants ?? [])
    if (n < max) n += countStem(lowerText, { word: v, stem: v, prefix: false }, max - n);
  return n;
}

function countStem(lowerText: string, term: QueryTerm, max: number): number {
  let from = 0;
  let n = 0;
  while (n < max) {
    const at = lowerText.indexOf(term.stem, from);
    if (at === -1) break;
    const before = at === 0 ? '' : lowerText[at - 1]!;
    const after = lowerText[at + term.stem.length] ?? '';
    const startOk = before === '' || !isWordChar(before);
    const endOk = term.prefix || after === '' || !isWordChar(after);
    if (startOk && endOk) n++;
    from = at + term.stem.length;
  }
  return n;
}

/** Does `text` (already lower-cased) contain the term at a word start? */
export function textHasTerm(lowerText: string, term: QueryTerm): boolean {
  return countTerm(lowerText, term, 1) > 0;
}
