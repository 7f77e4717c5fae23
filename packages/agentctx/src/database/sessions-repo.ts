import type { Db } from './open.js';

interface SessionRow {
  session_id: string;
  project_id: string | null;
  started_at: string | null;
  ended_at: string | null;
  tokens_injected: number;
  extraction_cost_usd: number;
  /** The session's last working directory (a CwdChanged), from its journal. */
  cwd: string | null;
}

/** What one fold of a session's journal lines adds to its row (database/journal-fold.ts). */
export interface SessionDelta {
  sessionId: string;
  /** The project of its first injection in these lines; null when they hold none. */
  projectId: string | null;
  startedAt: string;
  tokens: number;
  cwd: string | null;
  /** The latest end of the session in these lines (SessionEnd journaled it), or null. */
  endedAt: string | null;
}

/** Add journal lines to a session: tokens add up, the last cwd wins, the first sighting stays. */
export function foldIntoSession(db: Db, d: SessionDelta): void {
  db.prepare(
    `INSERT INTO sessions (session_id, project_id, started_at, tokens_injected, cwd, ended_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET
       tokens_injected = tokens_injected + excluded.tokens_injected,
       cwd = COALESCE(excluded.cwd, cwd),
       project_id = COALESCE(project_id, excluded.project_id),
       started_at = COALESCE(started_at, excluded.started_at),
       ended_at = CASE WHEN excluded.ended_at IS NOT NULL AND (ended_at IS NULL OR excluded.ended_at > ended_at)
                       THEN excluded.ended_at ELSE ended_at END`,
  ).run(d.sessionId, d.projectId, d.startedAt, d.tokens, d.cwd, d.endedAt);
}

/** Make sure a session row exists, attached to the project it runs in. */
export function touchSession(db: Db, sessionId: string, projectId: string, at: string): void {
  db.prepare(
    `INSERT INTO sessions (session_id, project_id, started_at) VALUES (?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET project_id = excluded.project_id`,
  ).run(sessionId, projectId, at);
}

/** Self-accounting (CONTRACTS.md §accounting): add an injection's token estimate to its session. */
export function addInjectedTokens(
  db: Db,
  sessionId: string,
  projectId: string,
  tokens: number,
  at: string,
): void {
  db.prepare(
    `INSERT INTO sessions (session_id, project_id, started_at, tokens_injected) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET tokens_injected = tokens_injected + excluded.tokens_injected`,
  ).run(sessionId, projectId, at, tokens);
}

export function addExtractionCost(
  db: Db,
  sessionId: string,
  projectId: string,
  usd: number,
  at: string,
): void {
  db.prepare(
    `INSERT INTO sessions (session_id, project_id, started_at, extraction_cost_usd) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET extraction_cost_usd = extraction_cost_usd + excluded.extraction_cost_usd`,
  ).run(sessionId, projectId, at, usd);
}

export function endSession(db: Db, sessionId: string, projectId: string, at: string): void {
  db.prepare(
    `INSERT INTO sessions (session_id, project_id, started_at, ended_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET ended_at = excluded.ended_at`,
  ).run(sessionId, projectId, at, at);
}

export function listSessions(db: Db, projectId: string, limit = 20): SessionRow[] {
  return db
    .prepare('SELECT * FROM sessions WHERE project_id = ? ORDER BY started_at DESC LIMIT ?')
    .all(projectId, limit) as SessionRow[];
}

export function sessionTotals(
  db: Db,
  projectId: string,
): { sessions: number; tokens_injected: number; extraction_cost_usd: number } {
  return db
    .prepare(
      `SELECT COUNT(*) AS sessions, COALESCE(SUM(tokens_injected), 0) AS tokens_injected,
              COALESCE(SUM(extraction_cost_usd), 0) AS extraction_cost_usd
       FROM sessions WHERE project_id = ?`,
    )
    .get(projectId) as { sessions: number; tokens_injected: number; extraction_cost_usd: number };
}

export interface TokenWindows {
  last_session: { session_id: string; started_at: string | null; tokens_injected: number } | null;
  last_7_days: number;
  all: number;
}

/** Tokens injected in the latest session, in sessions started in the 7 days before `now`, and in all. */
export function tokenWindows(db: Db, projectId: string, now: Date): TokenWindows {
  const last = db
    .prepare(
      `SELECT session_id, started_at, tokens_injected FROM sessions WHERE project_id = ?
       ORDER BY started_at DESC LIMIT 1`,
    )
    .get(projectId) as TokenWindows['last_session'] | undefined;
  const since = new Date(now.getTime() - 7 * 86_400_000).toISOString();
  const week = db
    .prepare(
      'SELECT COALESCE(SUM(tokens_injected), 0) AS n FROM sessions WHERE project_id = ? AND started_at >= ?',
    )
    .get(projectId, since) as { n: number };
  const all = db
    .prepare('SELECT COALESCE(SUM(tokens_injected), 0) AS n FROM sessions WHERE project_id = ?')
    .get(projectId) as { n: number };
  return { last_session: last ?? null, last_7_days: week.n, all: all.n };
}
