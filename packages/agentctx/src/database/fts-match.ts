import type { QueryTerm } from '../text/terms.js';

/**
 * Query terms (text/terms.ts) as FTS5 MATCH syntax: the one place that knows how FTS5 reads a
 * phrase, so that the words of a query never reach the index as operators.
 */

function quote(s: string): string {
  return `"${s.replace(/"/g, '""')}"`;
}

/** One term as FTS5 phrases: always quoted, so nothing in it can be read as syntax. */
export function termToFts(term: QueryTerm): string {
  if (term.forms && term.forms.length > 0) return `(${term.forms.map(quote).join(' OR ')})`;
  const main = term.prefix ? `${quote(term.stem)}*` : quote(term.stem);
  if (!term.variants || term.variants.length === 0) return main;
  return `(${[main, ...term.variants.map(quote)].join(' OR ')})`;
}

/** An FTS5 MATCH expression that ORs the terms; null when there is nothing to search for. */
export function buildMatchExpression(terms: readonly QueryTerm[]): string | null {
  if (terms.length === 0) return null;
  return terms.map(termToFts).join(' OR ');
}
