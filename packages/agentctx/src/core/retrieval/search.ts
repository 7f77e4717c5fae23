import { ageInDays } from '../../shared/age.js';
import { type ContextRecord, GLOBAL_PROJECT, type RecordType } from '../../shared/types.js';
import {
  buildMatchExpression,
  type DateHint,
  dateHint,
  extractTerms,
  foldText,
  inDateHint,
  isDateWord,
  type QueryTerm,
  termToFts,
  textHasTerm,
} from '../../storage/fts-query.js';
import type { Db } from '../../storage/open.js';
import { termDfLookup } from '../../storage/term-df.js';
import { namespacesOf } from '../records/records.js';

/**
 * The one retrieval engine behind the prompt hook, `ctx_search` and `agentctx search`:
 * FTS5 BM25 over the meaningful words of the query, then a rerank by type, confidence,
 * pinning and recency. Superseded records and other projects are filtered in SQL.
 */

export type Degraded = 'like-search' | 'pinned-only';

export interface SearchOptions {
  projectId: string;
  query: string;
  types?: readonly RecordType[];
  /** 'project' (default): the project and the global profile; 'global': the global profile only. */
  scope?: 'project' | 'global';
  limit?: number;
  /** Include superseded records (history). */
  history?: boolean;
  /** Ids never to return (already injected this session). Excluded in SQL, so deeper hits surface. */
  excludeIds?: readonly string[];
  /** Restrict to these record ids (e.g. records linked to a file). */
  onlyIds?: readonly string[];
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

/** Words kept from a query; long pastes keep their rarest words (see `pickTerms`). */
export const MAX_QUERY_TERMS = 12;
/** A term in more than this share of all records is not sent to FTS5 when rarer ones exist. */
const COMMON_SHARE = 0.5;
const COMMON_MIN_CORPUS = 2000;

/**
 * Scoring knobs, chosen on the retrieval benchmark (LoCoMo dev + bench/dev-memory.json): title
 * and body weigh the same in BM25; half of the rank comes from IDF-weighted coverage; decaying
 * types keep at least 80% of their weight however old; a record from the month/year the query
 * names gets ×1.2. Exported only so the benchmark can sweep them.
 */
export const TUNING = {
  candidates: 100,
  titleWeight: 1.0,
  bodyWeight: 1.0,
  coverageWeight: 0.5,
  recencyFloor: 0.8,
  typeWeights: true,
  dateBoost: 1.2,
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

/** Types whose relevance fades with age (SPEC §3.2); decisions and conventions never decay. */
const HALF_LIFE_DAYS: Partial<Record<RecordType, number>> = {
  discovery: 120,
  bugfix: 120,
  preference: 365,
  handover: 30,
};

function namespacesFor(opts: SearchOptions): string[] {
  return opts.scope === 'global' ? [GLOBAL_PROJECT] : namespacesOf(opts.projectId);
}

/** Document frequency of each term in the whole index (prefix terms: summed over their forms). */
export function documentFrequencies(db: Db, terms: readonly QueryTerm[]): Map<string, number> {
  const df = new Map<string, number>();
  const cache = dfCache(db);
  const missing = terms.filter((t) => {
    const hit = cache.get(dfKey(t));
    if (hit !== undefined) df.set(t.stem, hit);
    return hit === undefined;
  });
  if (missing.length === 0) return df;
  const lookup = termDfLookup(db);
  for (const t of missing) {
    const n = lookup(t);
    df.set(t.stem, n);
    cache.set(dfKey(t), n);
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

function dfKey(t: QueryTerm): string {
  return `${t.prefix ? '*' : '='}${t.stem}\u0000${t.forms?.join(',') ?? ''}`;
}

function dfCache(db: Db): Map<string, number> {
  const version = `${db.pragma('data_version', { simple: true })}:${(db.prepare('SELECT total_changes() AS c').get() as { c: number }).c}`;
  let entry = DF_CACHE.get(db);
  if (!entry || entry.version !== version || entry.map.size > DF_CACHE_MAX) {
    entry = { version, map: new Map() };
    DF_CACHE.set(db, entry);
  }
  return entry.map;
}

/** Number of indexed records; max(rowid) is O(1) and close enough for IDF. */
function corpusSize(db: Db): number {
  const row = db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM records').get() as { n: number };
  return Math.max(1, row.n);
}

/** BM25-style inverse document frequency, never below a small positive floor. */
export function idf(df: number, n: number): number {
  const d = Math.max(df, 1);
  return Math.max(0.05, Math.log(1 + (n - d + 0.5) / (d + 0.5)));
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

/** Postings a query may walk before its most common words are left out (see pickTerms). */
export const POSTINGS_BUDGET = 40_000;
const POSTINGS_MIN_TERMS = 3;

function filterSql(opts: SearchOptions, alias: string): { sql: string; args: unknown[] } {
  const ns = namespacesFor(opts);
  const parts = [`${alias}.project_id IN (${ns.map(() => '?').join(',')})`];
  const args: unknown[] = [...ns];
  if (!opts.history) parts.push(`${alias}.superseded_at IS NULL`);
  if (opts.types && opts.types.length > 0) {
    parts.push(`${alias}.type IN (${opts.types.map(() => '?').join(',')})`);
    args.push(...opts.types);
  }
  if (opts.excludeIds && opts.excludeIds.length > 0) {
    parts.push(`${alias}.id NOT IN (SELECT value FROM json_each(?))`);
    args.push(JSON.stringify(opts.excludeIds));
  }
  if (opts.onlyIds) {
    parts.push(`${alias}.id IN (SELECT value FROM json_each(?))`);
    args.push(JSON.stringify(opts.onlyIds));
  }
  return { sql: parts.join(' AND '), args };
}

type Row = ContextRecord & { rel: number };

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

function ftsCandidates(db: Db, opts: SearchOptions, match: string | null): Row[] {
  if (!match) return [];
  const f = filterSql(opts, 'r');
  const w = `${Number(TUNING.titleWeight)}, ${Number(TUNING.bodyWeight)}`;
  const want = Math.max(1, Math.trunc(opts.candidates ?? TUNING.candidates));
  if (opts.indexFirst) {
    const fetch = want * INDEX_FIRST_FETCH;
    const rows = db
      .prepare(
        `WITH top AS MATERIALIZED (
           SELECT rowid AS rid, -bm25(records_fts, ${w}) AS rel FROM records_fts
           WHERE records_fts MATCH ? ORDER BY rel DESC LIMIT ${fetch})
         SELECT r.*, top.rel AS rel, (SELECT count(*) FROM top) AS pool__
         FROM top JOIN records r ON r.rowid = top.rid WHERE ${f.sql}
         ORDER BY top.rel DESC LIMIT ${want}`,
      )
      .all(match, ...f.args) as (Row & { pool__?: number })[];
    // every match was ranked, or enough of the best survived the filter
    const all = rows.length > 0 && (rows[0]!.pool__ ?? 0) < fetch;
    if (all || rows.length >= Math.ceil(want / 3)) {
      for (const r of rows) delete r.pool__;
      return rows;
    }
  }
  // Rank on narrow rows first, then fetch whole records for the winners only: sorting full
  // bodies of every match is what makes common-word queries slow on big stores.
  return db
    .prepare(
      `WITH top AS (
         SELECT r.rowid AS rid, -bm25(records_fts, ${w}) AS rel
         FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
         WHERE records_fts MATCH ? AND ${f.sql}
         ORDER BY rel DESC LIMIT ${want})
       SELECT r.*, top.rel AS rel FROM top JOIN records r ON r.rowid = top.rid ORDER BY top.rel DESC`,
    )
    .all(match, ...f.args) as Row[];
}

/** How many index matches per wanted candidate an `indexFirst` search ranks before filtering. */
const INDEX_FIRST_FETCH = 4;

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

function likeCandidates(db: Db, opts: SearchOptions, terms: QueryTerm[]): Row[] {
  if (terms.length === 0) return [];
  const f = filterSql(opts, 'r');
  const conds = terms.map(() => "(r.title LIKE ? ESCAPE '\\' OR r.body LIKE ? ESCAPE '\\')");
  const likeArgs = terms.flatMap((t) => {
    const p = `%${likeEscape(t.stem)}%`;
    return [p, p];
  });
  const matchedExpr = conds.map((c) => `(CASE WHEN ${c} THEN 1 ELSE 0 END)`).join(' + ');
  return db
    .prepare(
      `SELECT r.*, 0 AS rel, (${matchedExpr}) AS n FROM records r
       WHERE (${conds.join(' OR ')}) AND ${f.sql}
       ORDER BY n DESC, r.recorded_at DESC LIMIT ${Math.trunc(TUNING.candidates)}`,
    )
    .all(...likeArgs, ...likeArgs, ...f.args)
    .map((r) => {
      const { n: _n, ...rest } = r as Row & { n: number };
      return rest as Row;
    });
}

function pinnedOnly(db: Db, opts: SearchOptions): Row[] {
  const f = filterSql(opts, 'r');
  return db
    .prepare(
      `SELECT r.*, 0 AS rel FROM records r WHERE r.pinned = 1 AND ${f.sql} ORDER BY r.recorded_at DESC LIMIT 15`,
    )
    .all(...f.args) as Row[];
}

/** Per-term weights for coverage: IDF when known, otherwise equal. */
type TermWeights = (t: QueryTerm) => number;

function rerank(
  rows: Row[],
  terms: QueryTerm[],
  weightOf: TermWeights,
  now: Date,
  when: DateHint | null = null,
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
      (inPeriod ? TUNING.dateBoost : 1);
    return { record: record as ContextRecord, score, relevance: rel, matched, coverage };
  });
  hits.sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? 1 : -1));
  const top = hits[0]?.score || 1;
  for (const h of hits) h.score = Math.round((h.score / top) * 1000) / 1000;
  for (const h of hits) h.coverage = Math.round(h.coverage * 1000) / 1000;
  return hits;
}

/** Search; never throws for any query text. Falls down the ladder of SPEC §8 when it must. */
export function search(db: Db, opts: SearchOptions): SearchResult {
  const limit = Math.max(1, Math.min(Math.trunc(Number(opts.limit ?? 10)) || 10, 50));
  let all: QueryTerm[] = [];
  try {
    all = extractTerms(typeof opts.query === 'string' ? opts.query : String(opts.query ?? ''));
  } catch {
    all = [];
  }
  try {
    const df = documentFrequencies(db, all);
    const n = corpusSize(db);
    const budget = opts.postingsBudget ?? POSTINGS_BUDGET;
    const terms = pickTerms(all, df, MAX_QUERY_TERMS, n, budget);
    // Coverage counts every query word, found or not (at the rarest weight): a prompt about
    // something the store has never heard of should not look well covered.
    const weightOf: TermWeights = (t) => idf(df.get(t.stem) ?? 0, n);
    const counted = all.length > MAX_QUERY_TERMS ? terms : all;
    const narrowed = matchFor(terms, df, budget);
    let rows = ftsCandidates(db, opts, narrowed);
    // no record holds two of the words: fall back to any of them (slow on such a store, rare)
    if (rows.length === 0 && narrowed !== buildMatchExpression(terms)) {
      rows = ftsCandidates(db, opts, buildMatchExpression(terms));
    }
    const when = dateHint(String(opts.query ?? ''));
    return { hits: rerank(rows, counted, weightOf, opts.now, when).slice(0, limit), terms: counted };
  } catch {
    // rung 4: FTS5 unusable
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
