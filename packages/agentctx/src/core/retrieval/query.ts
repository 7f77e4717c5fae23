import { buildMatchExpression, termToFts } from '../../database/fts-match.js';
import type { Db } from '../../database/open.js';
import { type QueryTerm, termKey } from '../../text/terms.js';

/** The one prepared query corpusSize keeps per handle. */
type Statement = { get(): unknown };

import { termDfLookup } from '../../database/term-df.js';

/**
 * Query building for `search`: which of the query's words are sent to FTS5 (document
 * frequencies, the postings budget) and the MATCH expression made of them.
 */

/** Words kept from a query; long pastes keep their rarest words (see `pickTerms`). */
export const MAX_QUERY_TERMS = 12;
/** A term in more than this share of all records is not sent to FTS5 when rarer ones exist. */
const COMMON_SHARE = 0.5;
const COMMON_MIN_CORPUS = 2000;

/** Postings a query may walk before its most common words are left out (see pickTerms). */
export const POSTINGS_BUDGET = 40_000;
const POSTINGS_MIN_TERMS = 3;

/** Document frequency of each term in the whole index (prefix terms: summed over their forms). */
export function documentFrequencies(db: Db, terms: readonly QueryTerm[]): Map<string, number> {
  const df = new Map<string, number>();
  const cache = dfCache(db);
  const missing = terms.filter((t) => {
    const hit = cache.get(termKey(t));
    if (hit !== undefined) df.set(t.stem, hit);
    return hit === undefined;
  });
  if (missing.length === 0) return df;
  const lookup = termDfLookup(db);
  for (const t of missing) {
    const n = lookup(t);
    df.set(t.stem, n);
    cache.set(termKey(t), n);
  }
  return df;
}

/**
 * A long-lived process (the MCP server) keeps the counts until the store changes: its own
 * writes (total_changes) or another process's commits (data_version). Words missing from
 * term_df are counted by walking their posting lists, and none is counted twice.
 */
const DF_CACHE = new WeakMap<Db, { version: string; map: Map<string, number> }>();
const DF_CACHE_MAX = 5000;

/** Other connections' commits, then this connection's own changes. */
function cacheVersion(db: Db): string {
  return `${db.pragma('data_version', { simple: true })}:${(db.prepare('SELECT total_changes() AS c').get() as { c: number }).c}`;
}

/**
 * Run a write that cannot change any document frequency (the MCP server's session accounting,
 * after every tool result) without dropping the cached counts: without this, every call
 * emptied the cache of the next. Counts that were current stay current unless another
 * connection committed meanwhile.
 */
export function keepingDfCache<T>(db: Db, write: () => T): T {
  const entry = DF_CACHE.get(db);
  const before = entry ? cacheVersion(db) : '';
  const out = write();
  if (entry && entry.version === before) {
    const after = cacheVersion(db);
    if (after.split(':')[0] === before.split(':')[0]) entry.version = after;
  }
  return out;
}

function dfCache(db: Db): Map<string, number> {
  const version = cacheVersion(db);
  let entry = DF_CACHE.get(db);
  if (!entry || entry.version !== version || entry.map.size > DF_CACHE_MAX) {
    entry = { version, map: new Map() };
    DF_CACHE.set(db, entry);
  }
  return entry.map;
}

/** Number of indexed records; max(rowid) is O(1) and close enough for IDF. */
const corpusQuery = new WeakMap<Db, Statement>();

export function corpusSize(db: Db): number {
  let stmt = corpusQuery.get(db);
  if (!stmt) {
    stmt = db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM records');
    corpusQuery.set(db, stmt);
  }
  const row = stmt.get() as { n: number };
  return Math.max(1, row.n);
}

/**
 * Keep at most `max` terms: those that occur somewhere (others cannot match), rarest first when
 * there are too many — rare words discriminate and keep the match set small.
 */
export function pickTerms(
  terms: readonly QueryTerm[],
  df: ReadonlyMap<string, number>,
  max = MAX_QUERY_TERMS,
  corpus = Number.POSITIVE_INFINITY,
  budget = POSTINGS_BUDGET,
): QueryTerm[] {
  const found = terms.filter((t) => (df.get(t.stem) ?? 0) > 0);
  // A word in most records barely ranks and makes the match set huge; search the others.
  // Only on big stores, where it matters for speed: in a small one the "common" word may be
  // exactly what the current record shares with the query.
  const telling =
    corpus >= COMMON_MIN_CORPUS ? found.filter((t) => (df.get(t.stem) ?? 0) <= corpus * COMMON_SHARE) : [];
  const useful = telling.length > 0 ? telling : found;
  const rarest = [...useful].sort((a, b) => (df.get(a.stem) ?? 0) - (df.get(b.stem) ?? 0)).slice(0, max);
  // The query's cost grows with the postings it walks: past the budget, leave out the most
  // common words (never below POSTINGS_MIN_TERMS), which rank least anyway.
  let postings = rarest.reduce((n, t) => n + (df.get(t.stem) ?? 0), 0);
  while (rarest.length > POSTINGS_MIN_TERMS && postings > budget) {
    postings -= df.get(rarest.pop()!.stem) ?? 0;
  }
  if (rarest.length === useful.length) return useful; // nothing left out: keep the query's order
  const kept = new Set(rarest);
  return useful.filter((t) => kept.has(t));
}

/**
 * The MATCH expression. Normally the terms OR-ed. When even the kept terms would walk more
 * than POSTINGS_BUDGET postings (a big store where every query word is common), a record must
 * hold two of the rarest four: FTS5 intersects those lists instead of scoring every record
 * that holds any one word — and a one-word match would not be injected anyway.
 */
export function matchFor(
  terms: readonly QueryTerm[],
  df: ReadonlyMap<string, number>,
  budget = POSTINGS_BUDGET,
): string | null {
  const postings = terms.reduce((n, t) => n + (df.get(t.stem) ?? 0), 0);
  if (postings <= budget || terms.length < 2) return buildMatchExpression(terms);
  const rare = [...terms].sort((a, b) => (df.get(a.stem) ?? 0) - (df.get(b.stem) ?? 0)).slice(0, 4);
  const pairs: string[] = [];
  for (let i = 0; i < rare.length; i++) {
    for (let j = i + 1; j < rare.length; j++)
      pairs.push(`(${termToFts(rare[i]!)} AND ${termToFts(rare[j]!)})`);
  }
  return pairs.join(' OR ');
}
