import type { Db } from './open.js';

interface ExtractionState {
  session_id: string;
  transcript_path: string;
  byte_offset: number;
  updated_at: string;
}

/** How far extraction has read this session's transcript (bytes), if it has started. */
export function getExtractionState(db: Db, sessionId: string): ExtractionState | undefined {
  return db.prepare('SELECT * FROM extraction_state WHERE session_id = ?').get(sessionId) as
    | ExtractionState
    | undefined;
}

export function setExtractionOffset(
  db: Db,
  sessionId: string,
  transcriptPath: string,
  byteOffset: number,
  at: string,
): void {
  db.prepare(
    `INSERT INTO extraction_state (session_id, transcript_path, byte_offset, updated_at) VALUES (?, ?, ?, ?)
     ON CONFLICT(session_id) DO UPDATE SET transcript_path = excluded.transcript_path,
       byte_offset = excluded.byte_offset, updated_at = excluded.updated_at`,
  ).run(sessionId, transcriptPath, byteOffset, at);
}

/** LLM spend of one UTC day (`YYYY-MM-DD`), across projects: what the daily cap is checked against. */
export function dailyExtractionCost(db: Db, day: string): number {
  const row = db.prepare('SELECT usd FROM extraction_costs WHERE day = ?').get(day) as
    | { usd: number }
    | undefined;
  return row?.usd ?? 0;
}

export function addDailyExtractionCost(db: Db, day: string, usd: number): void {
  db.prepare(
    `INSERT INTO extraction_costs (day, usd) VALUES (?, ?)
     ON CONFLICT(day) DO UPDATE SET usd = usd + excluded.usd`,
  ).run(day, usd);
}
