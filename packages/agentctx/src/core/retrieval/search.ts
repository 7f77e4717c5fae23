import { ftsUsable } from '../../database/fts-index.js';
import { buildMatchExpression, termToFts } from '../../database/fts-match.js';
import type { Db } from '../../database/open.js';
import { dateHint } from '../../text/dates.js';
import { extractTerms, foldText, type QueryTerm } from '../../text/terms.js';
import { namespacesOf } from '../records/records.js';
import { ftsCandidates, likeCandidates, pinnedOnly } from './candidates.js';
import {
  corpusSize,
  documentFrequencies,
  MAX_QUERY_TERMS,
  matchFor,
  POSTINGS_BUDGET,
  pickTerms,
} from './query.js';
import { idf, rerank, type TermWeights } from './rank.js';
import type { SearchOptions, SearchResult } from './search-types.js';
import { asksWhen } from './when.js';

/**
 * The one retrieval engine behind the prompt hook, `ctx_search` and `agentctx search`:
 * FTS5 BM25 over the meaningful words of the query, then a rerank by type, confidence,
 * pinning and recency. Superseded records and other projects are filtered in SQL.
 * The steps live beside this file: query.ts (which words, the MATCH expression),
 * candidates.ts (the SQL for each rung), rank.ts (the rerank and its TUNING).
 */

/** Search; never throws for any query text. Falls down the ladder of CONTRACTS.md §ladder when it must. */
export function search(db: Db, opts: SearchOptions): SearchResult {
  const limit = Math.max(1, Math.min(Math.trunc(Number(opts.limit ?? 10)) || 10, 50));
  let all: QueryTerm[] = [];
  try {
    all = extractTerms(typeof opts.query === 'string' ? opts.query : String(opts.query ?? ''));
  } catch {
    all = [];
  }
  try {
    // rung 4 when this SQLite has no FTS5 or the index is paused (database/fts-index.ts)
    if (!ftsUsable(db)) throw new Error('FTS5 index unavailable');
    const df = documentFrequencies(db, all);
    const n = corpusSize(db);
    const budget = opts.postingsBudget ?? POSTINGS_BUDGET;
    const terms = pickTerms(all, df, MAX_QUERY_TERMS, n, budget);
    // Coverage counts every query word, found or not (at the rarest weight): a prompt about
    // something the store has never heard of should not look well covered.
    const weightOf: TermWeights = (t) => idf(df.get(t.stem) ?? 0, n);
    const counted = all.length > MAX_QUERY_TERMS ? terms : all;
    const narrowed = matchFor(terms, df, budget);
    const anyTerm = buildMatchExpression(terms);
    // the postings the expression walks: the candidate step picks its plan by them. An
    // index-first search narrowed to pairs of rare words scores few rows and looks up only its
    // winners, so listing the namespace would only add to it (measured, candidates.ts).
    const postings = terms.reduce((sum, t) => sum + (df.get(t.stem) ?? 0), 0);
    const planBy = narrowed === anyTerm || !opts.indexFirst ? postings : undefined;
    let rows = ftsCandidates(db, opts, narrowed, planBy);
    // no record holds two of the words: fall back to any of them (slow on such a store, rare)
    if (rows.length === 0 && narrowed !== anyTerm) {
      rows = ftsCandidates(db, opts, anyTerm, postings);
    }
    const text = String(opts.query ?? '');
    const when = dateHint(text);
    // "when did…", "how long…": records that say when rank higher (when.ts)
    const askingWhen = asksWhen(foldText(text.slice(0, 2000)));
    return {
      hits: rerank(rows, counted, weightOf, opts.now, when, askingWhen).slice(0, limit),
      terms: counted,
    };
  } catch {
    // rung 4: FTS5 unusable (missing, paused, or failing on this store)
  }
  try {
    const likeTerms = all.slice(0, MAX_QUERY_TERMS);
    const rows = likeCandidates(db, opts, likeTerms);
    return {
      hits: rerank(rows, likeTerms, () => 1, opts.now).slice(0, limit),
      terms: likeTerms,
      degraded: 'like-search',
    };
  } catch {
    // rung 5
  }
  try {
    return {
      hits: rerank(pinnedOnly(db, opts), [], () => 1, opts.now).slice(0, limit),
      terms: [],
      degraded: 'pinned-only',
    };
  } catch {
    return { hits: [], terms: [], degraded: 'pinned-only' };
  }
}

/** The plain baseline of the retrieval benchmark: every query token OR-ed, BM25 order, no rerank. */
export function baselineSearch(db: Db, projectId: string, query: string, limit: number): string[] {
  const words = [
    ...String(query)
      .toLowerCase()
      .matchAll(/[\p{L}\p{N}]+/gu),
  ].map((m) => m[0]);
  if (words.length === 0) return [];
  const match = [...new Set(words)].map((w) => termToFts({ word: w, stem: w, prefix: false })).join(' OR ');
  const ns = namespacesOf(projectId);
  return (
    db
      .prepare(
        `SELECT r.id FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
         WHERE records_fts MATCH ? AND r.project_id IN (${ns.map(() => '?').join(',')}) AND r.superseded_at IS NULL
         ORDER BY bm25(records_fts) LIMIT ?`,
      )
      .all(match, ...ns, limit) as { id: string }[]
  ).map((r) => r.id);
}
