import type { Db } from './open.js';

/**
 * Usage evidence (migration 12): which records each session was shown, whether it used them,
 * and per record how many sessions were shown it and used it. Stored ground truth; the score
 * drawn from the counts is derived (core/consolidation/scores.ts).
 */

/** How a record reached the session. */
type ShownVia = 'digest' | 'prompt' | 'subagent' | 'mcp_search' | 'mcp_get';

/** What the session did with a record it was shown. */
export type Verdict = 'used' | 'unused' | 'contradicted';

interface ShownRow {
  session_id: string;
  record_id: string;
  via: ShownVia;
  tokens: number;
  shown_at: string;
  verdict: Verdict | null;
  evidence: string | null;
  judged_at: string | null;
}

interface UsageCounts {
  record_id: string;
  shown_count: number;
  used_count: number;
  contradicted_count: number;
  last_shown_at: string | null;
  last_used_at: string | null;
}

/**
 * Note that `sessionId` was shown `recordIds` (each given `tokensEach` injected tokens). A record
 * already shown to the session adds its tokens to the row; one shown for the first time counts
 * one more showing in record_usage. The caller holds the transaction when it needs one.
 */
export function addShown(
  db: Db,
  sessionId: string,
  recordIds: readonly string[],
  via: ShownVia,
  tokensEach: number,
  at: string,
): number {
  const insert = db.prepare(
    `INSERT INTO session_shown (session_id, record_id, via, tokens, shown_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(session_id, record_id) DO NOTHING`,
  );
  const addTokens = db.prepare(
    'UPDATE session_shown SET tokens = tokens + ? WHERE session_id = ? AND record_id = ?',
  );
  const count = db.prepare(
    `INSERT INTO record_usage (record_id, shown_count, last_shown_at) VALUES (?, 1, ?)
     ON CONFLICT(record_id) DO UPDATE SET shown_count = shown_count + 1,
       last_shown_at = MAX(COALESCE(last_shown_at, ''), excluded.last_shown_at)`,
  );
  let fresh = 0;
  for (const id of new Set(recordIds)) {
    if (insert.run(sessionId, id, via, tokensEach, at).changes > 0) {
      count.run(id, at);
      fresh++;
    } else if (tokensEach > 0) addTokens.run(tokensEach, sessionId, id);
  }
  return fresh;
}

export function shownInSession(db: Db, sessionId: string): ShownRow[] {
  return db
    .prepare('SELECT * FROM session_shown WHERE session_id = ? ORDER BY shown_at, record_id')
    .all(sessionId) as ShownRow[];
}

function delta(v: Verdict | null): { used: number; contradicted: number } {
  return { used: v === 'used' ? 1 : 0, contradicted: v === 'contradicted' ? 1 : 0 };
}

/**
 * Store a session's verdict on a record it was shown, keeping record_usage in step: a session
 * counts at most once per record, and judging again (a later Stop saw more of the transcript)
 * moves the counts by the difference only. Returns whether anything changed.
 */
export function setVerdict(
  db: Db,
  sessionId: string,
  recordId: string,
  verdict: Verdict,
  evidence: string,
  at: string,
): boolean {
  const row = db
    .prepare('SELECT verdict, evidence FROM session_shown WHERE session_id = ? AND record_id = ?')
    .get(sessionId, recordId) as { verdict: Verdict | null; evidence: string | null } | undefined;
  if (!row) return false;
  if (row.verdict === verdict && row.evidence === evidence) return false;
  db.prepare(
    'UPDATE session_shown SET verdict = ?, evidence = ?, judged_at = ? WHERE session_id = ? AND record_id = ?',
  ).run(verdict, evidence, at, sessionId, recordId);
  const before = delta(row.verdict);
  const after = delta(verdict);
  const du = after.used - before.used;
  const dc = after.contradicted - before.contradicted;
  if (du !== 0 || dc !== 0) {
    db.prepare(
      `INSERT INTO record_usage (record_id, used_count, contradicted_count, last_used_at) VALUES (?, ?, ?, ?)
       ON CONFLICT(record_id) DO UPDATE SET used_count = MAX(0, used_count + ?),
         contradicted_count = MAX(0, contradicted_count + ?),
         last_used_at = CASE WHEN ? > 0 THEN excluded.last_used_at ELSE last_used_at END`,
    ).run(recordId, Math.max(0, du), Math.max(0, dc), du > 0 ? at : null, du, dc, du);
  }
  return true;
}

export function usageOf(db: Db, recordId: string): UsageCounts | null {
  return (
    (db.prepare('SELECT * FROM record_usage WHERE record_id = ?').get(recordId) as UsageCounts | undefined) ??
    null
  );
}

export interface TaxShare {
  /** Injected tokens attributed to shown records (digest, prompt, subagent). */
  injected: number;
  /** Of those, the tokens of records the session used. */
  used: number;
  /** Injected tokens of records not judged yet (the session's extraction has not run). */
  unjudged: number;
}

const INJECTED = "('digest', 'prompt', 'subagent')";

/** The injected tokens of one session and how many of them went to records it used. */
export function sessionTaxShare(db: Db, sessionId: string): TaxShare {
  return db
    .prepare(
      `SELECT COALESCE(SUM(tokens), 0) AS injected,
              COALESCE(SUM(CASE WHEN verdict = 'used' THEN tokens ELSE 0 END), 0) AS used,
              COALESCE(SUM(CASE WHEN verdict IS NULL THEN tokens ELSE 0 END), 0) AS unjudged
       FROM session_shown WHERE session_id = ? AND via IN ${INJECTED}`,
    )
    .get(sessionId) as TaxShare;
}

/** The same over the sessions of a project started at or after `since`. */
export function projectTaxShare(db: Db, projectId: string, since: string): TaxShare {
  return db
    .prepare(
      `SELECT COALESCE(SUM(s.tokens), 0) AS injected,
              COALESCE(SUM(CASE WHEN s.verdict = 'used' THEN s.tokens ELSE 0 END), 0) AS used,
              COALESCE(SUM(CASE WHEN s.verdict IS NULL THEN s.tokens ELSE 0 END), 0) AS unjudged
       FROM session_shown s JOIN sessions x ON x.session_id = s.session_id
       WHERE x.project_id = ? AND x.started_at >= ? AND s.via IN ${INJECTED}`,
    )
    .get(projectId, since) as TaxShare;
}

/** Per-record usage of a project's current records: how many were shown, used, never used. */
export function usageTotals(
  db: Db,
  namespaces: readonly string[],
): { shown: number; used: number; never_used: number } {
  const marks = namespaces.map(() => '?').join(',');
  return db
    .prepare(
      `SELECT COUNT(*) AS shown, COALESCE(SUM(u.used_count > 0), 0) AS used,
              COALESCE(SUM(u.used_count = 0 AND u.shown_count >= 3), 0) AS never_used
       FROM record_usage u JOIN records r ON r.id = u.record_id
       WHERE r.project_id IN (${marks}) AND r.superseded_at IS NULL AND u.shown_count > 0`,
    )
    .get(...namespaces) as { shown: number; used: number; never_used: number };
}
