import {
  buildMatchExpression,
  extractTerms,
  type QueryTerm,
  termToFts,
  textHasTerm,
} from '../storage/fts-query.js';
import type { Db } from '../storage/open.js';
import { ageInDays } from './age.js';
import { namespacesOf } from './records.js';
import { type ContextRecord, GLOBAL_PROJECT, type RecordType } from './types.js';

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
  now: Date;
}

export interface SearchHit {
  record: ContextRecord;
  /** Final rank score, 0..1 relative to the best hit of this query. */
  score: number;
  /** Raw BM25 relevance (higher is better; 0 when not from FTS). */
  relevance: number;
  /** How many distinct query terms the record contains. */
  matched: number;
  /** The matched share of the query's term weight, 0..1. */
  coverage: number;
}

export interface SearchResult {
  hits: SearchHit[];
  terms: QueryTerm[];
  degraded?: Degraded;
}

/** Words kept from a query; long pastes keep their rarest words (see `pickTerms`). */
export const MAX_QUERY_TERMS = 12;
const CANDIDATES = 60;

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

/** For long queries keep the rarest terms: they discriminate, and they keep the match set small. */
export function pickTerms(db: Db, terms: QueryTerm[], max = MAX_QUERY_TERMS): QueryTerm[] {
  if (terms.length <= max) return terms;
  const df = new Map<string, number>();
  try {
    const stmt = db.prepare('SELECT doc FROM records_fts_vocab WHERE term >= ? AND term < ? ');
    const sum = db.prepare(
      'SELECT COALESCE(SUM(doc), 0) AS n FROM records_fts_vocab WHERE term >= ? AND term < ?',
    );
    for (const t of terms) {
      if (t.prefix) df.set(t.stem, (sum.get(t.stem, `${t.stem}\u{10FFFF}`) as { n: number }).n);
      else {
        const row = stmt.get(t.stem, `${t.stem}\u0000`) as { doc: number } | undefined;
        df.set(t.stem, row?.doc ?? 0);
      }
    }
  } catch {
    return terms.slice(0, max);
  }
  const useful = terms.filter((t) => (df.get(t.stem) ?? 0) > 0);
  const pool = useful.length > 0 ? useful : terms;
  return [...pool].sort((a, b) => (df.get(a.stem) ?? 0) - (df.get(b.stem) ?? 0)).slice(0, max);
}

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

function ftsCandidates(db: Db, opts: SearchOptions, terms: QueryTerm[]): Row[] {
  const match = buildMatchExpression(terms);
  if (!match) return [];
  const f = filterSql(opts, 'r');
  return db
    .prepare(
      `SELECT r.*, -bm25(records_fts, 2.0, 1.0) AS rel
       FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
       WHERE records_fts MATCH ? AND ${f.sql}
       ORDER BY bm25(records_fts, 2.0, 1.0) LIMIT ${CANDIDATES}`,
    )
    .all(match, ...f.args) as Row[];
}

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
      `SELECT r.*, (${matchedExpr}) AS rel FROM records r
       WHERE (${conds.join(' OR ')}) AND ${f.sql}
       ORDER BY rel DESC, r.recorded_at DESC LIMIT ${CANDIDATES}`,
    )
    .all(...likeArgs, ...likeArgs, ...f.args) as Row[];
}

function pinnedOnly(db: Db, opts: SearchOptions): Row[] {
  const f = filterSql(opts, 'r');
  return db
    .prepare(
      `SELECT r.*, 0 AS rel FROM records r WHERE r.pinned = 1 AND ${f.sql} ORDER BY r.recorded_at DESC LIMIT 15`,
    )
    .all(...f.args) as Row[];
}

function rerank(rows: Row[], terms: QueryTerm[], now: Date): SearchHit[] {
  const best = rows.reduce((m, r) => Math.max(m, r.rel), 0) || 1;
  const weight = (t: QueryTerm) => Math.min(3, 1 + t.stem.length / 6);
  const total = terms.reduce((s, t) => s + weight(t), 0) || 1;
  const hits = rows.map((row) => {
    const { rel, ...record } = row;
    const text = `${record.title}\n${record.body}`.normalize('NFKC').toLowerCase();
    let matched = 0;
    let got = 0;
    for (const t of terms) {
      if (textHasTerm(text, t)) {
        matched++;
        got += weight(t);
      }
    }
    const coverage = terms.length ? got / total : 0;
    const half = HALF_LIFE_DAYS[record.type];
    const recency = half ? 0.75 + 0.25 * 0.5 ** (ageInDays(record.valid_from, now) / half) : 1;
    const confidence = record.confidence === 'inferred' ? 0.8 : 1;
    const pin = record.pinned ? 1.15 : 1;
    const derived = Math.min(1.5, Math.max(0.5, record.score ?? 1));
    const relNorm = Math.max(0, rel) / best;
    const score =
      (0.75 * relNorm + 0.25 * coverage) *
      TYPE_WEIGHT[record.type] *
      recency *
      confidence *
      pin *
      (0.8 + 0.2 * derived);
    return { record: record as ContextRecord, score, relevance: rel, matched, coverage };
  });
  hits.sort((a, b) => b.score - a.score || (a.record.id < b.record.id ? 1 : -1));
  const top = hits[0]?.score || 1;
  for (const h of hits) h.score = Math.round((h.score / top) * 1000) / 1000;
  return hits;
}

/** Search; never throws for any query text. Falls down the ladder of SPEC §8 when it must. */
export function search(db: Db, opts: SearchOptions): SearchResult {
  const limit = Math.max(1, Math.min(opts.limit ?? 10, 50));
  const all = extractTerms(opts.query);
  let terms = all;
  try {
    terms = pickTerms(db, all);
    const rows = ftsCandidates(db, opts, terms);
    return { hits: rerank(rows, terms, opts.now).slice(0, limit), terms };
  } catch {
    // rung 4: FTS5 unusable
  }
  try {
    const likeTerms = all.slice(0, MAX_QUERY_TERMS);
    const rows = likeCandidates(db, opts, likeTerms);
    return {
      hits: rerank(rows, likeTerms, opts.now).slice(0, limit),
      terms: likeTerms,
      degraded: 'like-search',
    };
  } catch {
    // rung 5
  }
  try {
    return {
      hits: rerank(pinnedOnly(db, opts), [], opts.now).slice(0, limit),
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
