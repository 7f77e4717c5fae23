import type { TimeTravel } from '../../database/as-of.js';
import type { WriterFilter } from '../../database/writer-filter.js';
import type { ContextRecord, RecordType } from '../../shared/types.js';
import type { QueryTerm } from '../../text/terms.js';

/** The options and results of `search` (search.ts), shared by the query, candidate and rank steps. */

type Degraded = 'like-search' | 'pinned-only';

export interface SearchOptions {
  projectId: string;
  query: string;
  types?: readonly RecordType[];
  /** 'project' (default): the project and the global profile; 'global': the global profile only. */
  scope?: 'project' | 'global';
  limit?: number;
  /** Include superseded records (history). */
  history?: boolean;
  /** What was valid at a point in time (and, with `knownAt`, as known then); overrides `history`. */
  time?: TimeTravel;
  /** Ids never to return (already injected this session). Excluded in SQL, so deeper hits surface. */
  excludeIds?: readonly string[];
  /** Restrict to these record ids (e.g. records linked to a file). */
  onlyIds?: readonly string[];
  /** Whose records may be returned (values of `records.agent`); every writer's when absent. */
  writers?: WriterFilter;
  /**
   * BM25 candidates re-ranked (default TUNING.candidates). The prompt hook, which keeps three,
   * asks for fewer: on LoCoMo 30 candidates score within 0.001 of 100 at R@3 and R@5.
   */
  candidates?: number;
  /**
   * Postings the query may walk (default POSTINGS_BUDGET): past it, the most common words are
   * left out, then a record must hold two of the rarest four (see pickTerms, matchFor).
   */
  postingsBudget?: number;
  /**
   * Rank the index alone first (INDEX_FIRST_FETCH × candidates), then drop other projects' and
   * superseded records: a row lookup for the winners only, not for every match. When those
   * crowd the top, the pool is smaller than `candidates` (at least a third of it; below that,
   * the filter is joined in as usual). The prompt hook's setting; the default is the exact pool.
   */
  indexFirst?: boolean;
  now: Date;
}

export interface SearchHit {
  record: ContextRecord;
  /**
   * Final rank score, 0..1 relative to the best hit of THIS query (the best hit is always 1).
   * Good for ordering and for "how far below the best is this one"; says nothing about
   * absolute strength — use `coverage` and `matched` for that.
   */
  score: number;
  /** Raw BM25 relevance from FTS5 (higher is better; 0 when not from FTS, e.g. degraded). */
  relevance: number;
  /** How many distinct query terms (of `SearchResult.terms`) the record contains. */
  matched: number;
  /**
   * The matched share of the query's information, 0..1: each term weighs by its rarity in the
   * store (IDF), so matching a rare word counts more than matching a common one; query words
   * that occur nowhere in the store still count in the total. 1 = every term matched. This
   * is the absolute "how well does this record answer the query" signal for weak-match cut-offs.
   */
  coverage: number;
}

export interface SearchResult {
  hits: SearchHit[];
  /**
   * The query's meaningful terms (stop-words dropped, de-duplicated, at most MAX_QUERY_TERMS):
   * what `matched` and `coverage` are measured against. A word that occurs nowhere in the store
   * stays here (it counts against coverage) but is not sent to FTS5.
   */
  terms: QueryTerm[];
  degraded?: Degraded;
}
