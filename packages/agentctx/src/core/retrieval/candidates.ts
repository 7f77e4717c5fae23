import { timeFilterSql } from '../../database/as-of.js';
import type { Db } from '../../database/open.js';
import { writerSql } from '../../database/writer-filter.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';
import type { QueryTerm } from '../../text/terms.js';
import { namespacesOf } from '../records/records.js';
import { type CandidateRow, TUNING } from './rank.js';
import type { SearchOptions } from './search-types.js';

/**
 * Candidate fetch for `search`, one function per rung of the ladder (CONTRACTS.md §ladder): FTS5
 * BM25 for a MATCH expression, LIKE when FTS5 is unusable, pinned records when nothing else works.
 * Other projects, superseded records and excluded ids are filtered in SQL.
 */

function namespacesFor(opts: SearchOptions): string[] {
  return opts.scope === 'global' ? [GLOBAL_PROJECT] : namespacesOf(opts.projectId);
}

function filterSql(opts: SearchOptions, alias: string): { sql: string; args: unknown[] } {
  const ns = namespacesFor(opts);
  const parts = [`${alias}.project_id IN (${ns.map(() => '?').join(',')})`];
  const args: unknown[] = [...ns];
  if (opts.time) {
    // a history query: what was valid then (database/as-of.ts), superseded since or not
    const t = timeFilterSql(alias, opts.time);
    parts.push(t.sql);
    args.push(...t.args);
  } else if (!opts.history) parts.push(`${alias}.superseded_at IS NULL`);
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
  // the records of writers kept to themselves (app/agent-scope.ts); nothing when none are
  const w = writerSql(opts.writers, alias);
  return { sql: parts.join(' AND ') + w.sql, args: [...args, ...w.args] };
}

/**
 * FTS5 candidates for a MATCH expression. `postings`, when the caller knows it, is how many
 * postings the expression walks (the document frequencies of its terms, summed): past
 * NAMESPACE_FIRST_MIN_POSTINGS and a share of the rows the filter keeps, those rows are listed
 * first and only the matches among them are scored (`namespacePlan`). An index-first search
 * whose first pass is crowded out falls back to the exact pool, by whichever plan suits it.
 */
export function ftsCandidates(
  db: Db,
  opts: SearchOptions,
  match: string | null,
  postings?: number,
): CandidateRow[] {
  if (!match) return [];
  const q: Query = {
    db,
    match,
    f: filterSql(opts, 'r'),
    // the namespace's rows as the covering index holds them: the ids to leave out or keep are
    // not in it (reading them would touch every row), so they apply to the winners
    ns: filterSql({ ...opts, excludeIds: undefined, onlyIds: undefined }, 'r'),
    w: `${Number(TUNING.titleWeight)}, ${Number(TUNING.bodyWeight)}`,
    want: Math.max(1, Math.trunc(opts.candidates ?? TUNING.candidates)),
    excluded: opts.excludeIds ?? [],
  };
  // whether the postings pass `share` times the namespace's rows: counted only when the
  // postings are many, and only up to where the answer is known
  const listFirst = (share: number): boolean => {
    if (opts.onlyIds || postings === undefined || !(postings >= NAMESPACE_FIRST_MIN_POSTINGS)) return false;
    return postings > share * namespaceRows(q, Math.ceil(postings / share));
  };
  if (opts.indexFirst) {
    if (listFirst(INDEX_FIRST_SHARE)) return namespacePlan(q);
    const rows = indexFirstPlan(q);
    if (rows) return rows;
    // the exact pool after all: the exact plans' own choice between them
  }
  return listFirst(EXACT_SHARE) ? namespacePlan(q) : joinedPlan(q);
}

/** One candidate query: the MATCH expression, the filter, the namespace part of it, the pool. */
interface Query {
  db: Db;
  match: string;
  f: { sql: string; args: unknown[] };
  ns: { sql: string; args: unknown[] };
  /** bm25()'s column weights. */
  w: string;
  want: number;
  excluded: readonly string[];
}

/**
 * The filter's rows (other projects and superseded records out) from the covering index, then
 * BM25 over the matches among them only. The joined plan looks up every match's record row to
 * filter it: on a store of many projects most matches are other projects', and those lookups
 * touch pages all over the file (measured at 100,000 records, 12 projects: a 29,000-match query
 * 19.2 → 8.3 ms, and the MCP server's mapped store after one such search 86 → 29 MB). `+` keeps
 * the IN list out of FTS5's rowid lookups. Excluded ids can only take their own places among
 * the best: ranking as many more rows as there are excluded ids keeps the pool exact.
 */
function namespacePlan(q: Query): CandidateRow[] {
  const { excluded } = q;
  return q.db
    .prepare(
      `WITH ns AS MATERIALIZED (SELECT r.rowid AS rid FROM records r WHERE ${q.ns.sql}),
       top AS (
         SELECT records_fts.rowid AS rid, -bm25(records_fts, ${q.w}) AS rel FROM records_fts
         WHERE records_fts MATCH ? AND +records_fts.rowid IN ns
         ORDER BY rel DESC LIMIT ${q.want + excluded.length})
       SELECT r.*, top.rel AS rel FROM top JOIN records r ON r.rowid = top.rid
       ${excluded.length > 0 ? 'WHERE r.id NOT IN (SELECT value FROM json_each(?))' : ''}
       ORDER BY top.rel DESC LIMIT ${q.want}`,
    )
    .all(...q.ns.args, q.match, ...(excluded.length > 0 ? [JSON.stringify(excluded)] : [])) as CandidateRow[];
}

/**
 * The prompt hook's first pass: BM25 over the index alone, INDEX_FIRST_FETCH × the pool, then
 * the filter on those winners only. Null when too few of them survive the filter (other
 * projects' records crowding the top): the caller then ranks the exact pool.
 */
function indexFirstPlan(q: Query): CandidateRow[] | null {
  // the ids a session was already shown can only take their own places among the best: a
  // long session's growing dedup set must not push every prompt onto the slow path below.
  // CROSS JOIN keeps the ranked rows first: with the excluded ids' NOT IN, SQLite's planner
  // otherwise walks every record of the namespace (records_project_current) and probes the
  // ranked rows for each, ~20 ms at 100,000 records whatever the number of ids.
  const fetch = q.want * INDEX_FIRST_FETCH + Math.min(q.excluded.length, EXCLUDED_FETCH_MAX);
  const rows = q.db
    .prepare(
      `WITH top AS MATERIALIZED (
         SELECT rowid AS rid, -bm25(records_fts, ${q.w}) AS rel FROM records_fts
         WHERE records_fts MATCH ? ORDER BY rel DESC LIMIT ${fetch})
       SELECT r.*, top.rel AS rel, (SELECT count(*) FROM top) AS pool__
       FROM top CROSS JOIN records r ON r.rowid = top.rid WHERE ${q.f.sql}
       ORDER BY top.rel DESC LIMIT ${q.want}`,
    )
    .all(q.match, ...q.f.args) as (CandidateRow & { pool__?: number })[];
  // every match was ranked, or enough of the best survived the filter
  const all = rows.length > 0 && (rows[0]!.pool__ ?? 0) < fetch;
  if (!all && rows.length < Math.ceil(q.want / 3)) return null;
  for (const r of rows) delete r.pool__;
  return rows;
}

/**
 * The exact pool with the filter joined in. Rank on narrow rows first, then fetch whole
 * records for the winners only: sorting full bodies of every match is what makes common-word
 * queries slow on big stores.
 */
function joinedPlan(q: Query): CandidateRow[] {
  return q.db
    .prepare(
      `WITH top AS (
         SELECT r.rowid AS rid, -bm25(records_fts, ${q.w}) AS rel
         FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
         WHERE records_fts MATCH ? AND ${q.f.sql}
         ORDER BY rel DESC LIMIT ${q.want})
       SELECT r.*, top.rel AS rel FROM top JOIN records r ON r.rowid = top.rid ORDER BY top.rel DESC`,
    )
    .all(q.match, ...q.f.args) as CandidateRow[];
}

/**
 * The namespace's rows, counted on the covering index up to `upTo` (~0.5 ms for 12,000 at
 * 100,000 records): a one-project store's namespace is the whole store, and counting all of
 * it only to learn that it is big cost a cold prompt hook 1 ms at 10,000 records.
 */
function namespaceRows(q: Query, upTo: number): number {
  return q.db
    .prepare(`SELECT count(*) FROM (SELECT 1 FROM records r WHERE ${q.ns.sql} LIMIT ?)`)
    .pluck()
    .get(...q.ns.args, upTo) as number;
}

/**
 * Below this many postings the usual plan is kept whatever the namespace: it costs a few
 * milliseconds at most there, and the count that decides would be a tenth of it.
 */
export const NAMESPACE_FIRST_MIN_POSTINGS = 4000;

/**
 * Listing the namespace pays once the postings pass this share of its rows. The exact pool
 * looks up every match's row: at 100,000 records (10,000 kept rows) the plans cross near
 * 6,000 postings. An `indexFirst` search scores every match but looks up only its winners'
 * rows: there listing pays only past about 2.6 times the namespace's rows (BM25 at ~0.6 µs a
 * row against ~0.6 µs a listed row plus ~0.37 µs a posting). Both plans return the same
 * candidates, so these shares move time only (measured on the scale benchmark's stores, 200
 * queries of its ctx_search mix per store).
 */
const EXACT_SHARE = 0.6;
const INDEX_FIRST_SHARE = 3;

/** How many index matches per wanted candidate an `indexFirst` search ranks before filtering. */
const INDEX_FIRST_FETCH = 4;
/** The most excluded ids an `indexFirst` search fetches extra rows for. */
const EXCLUDED_FETCH_MAX = 2000;

function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The substrings that stand for a term in LIKE search: its word forms, its stem and the word
 * y→i variants and the word as written (a stem is not always a substring of the word:
 * "retries" → "retry").
 */
function likePatterns(t: QueryTerm): string[] {
  return [...new Set([...(t.forms ?? []), t.stem, ...(t.variants ?? []), t.word])].filter(
    (p) => p.length > 0,
  );
}

export function likeCandidates(db: Db, opts: SearchOptions, terms: QueryTerm[]): CandidateRow[] {
  if (terms.length === 0) return [];
  const f = filterSql(opts, 'r');
  const conds = terms.map(
    (t) =>
      `(${likePatterns(t)
        .map(() => "r.title LIKE ? ESCAPE '\\' OR r.body LIKE ? ESCAPE '\\'")
        .join(' OR ')})`,
  );
  const likeArgs = terms.flatMap((t) =>
    likePatterns(t).flatMap((p) => {
      const like = `%${likeEscape(p)}%`;
      return [like, like];
    }),
  );
  const matchedExpr = conds.map((c) => `(CASE WHEN ${c} THEN 1 ELSE 0 END)`).join(' + ');
  return db
    .prepare(
      `SELECT r.*, 0 AS rel, (${matchedExpr}) AS n FROM records r
       WHERE (${conds.join(' OR ')}) AND ${f.sql}
       ORDER BY n DESC, r.recorded_at DESC LIMIT ${Math.trunc(TUNING.candidates)}`,
    )
    .all(...likeArgs, ...likeArgs, ...f.args)
    .map((r) => {
      const { n: _n, ...rest } = r as CandidateRow & { n: number };
      return rest as CandidateRow;
    });
}

export function pinnedOnly(db: Db, opts: SearchOptions): CandidateRow[] {
  const f = filterSql(opts, 'r');
  return db
    .prepare(
      `SELECT r.*, 0 AS rel FROM records r WHERE r.pinned = 1 AND ${f.sql} ORDER BY r.recorded_at DESC LIMIT 15`,
    )
    .all(...f.args) as CandidateRow[];
}
