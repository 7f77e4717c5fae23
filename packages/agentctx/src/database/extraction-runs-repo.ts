import type { Db } from './open.js';

/** One extraction as it ran: where from, which backend it used (null: rules), and why. */
export interface ExtractionRun {
  session_id: string;
  at: string;
  /** `hook`: spawned by a Stop hook in the agent's environment; `manual`: run from a shell. */
  via: 'hook' | 'manual';
  /** What it did: `llm`/`flush` (a model answered), `rules` (no model, or the model failed). */
  mode: string;
  /** config `llm.backend` at the time. */
  configured: string;
  backend: string | null;
  model: string | null;
  calls: number;
  cost_usd: number;
  reason: string;
}

/** Rows kept per project: enough for "the last extractions", small whatever the history. */
const KEEP = 50;

export function recordExtractionRun(db: Db, projectId: string, run: ExtractionRun): void {
  db.transaction(() => {
    db.prepare(
      `INSERT INTO extraction_runs (project_id, session_id, at, via, mode, configured, backend, model, calls, cost_usd, reason)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      projectId,
      run.session_id,
      run.at,
      run.via,
      run.mode,
      run.configured,
      run.backend,
      run.model,
      run.calls,
      run.cost_usd,
      run.reason,
    );
    db.prepare(
      `DELETE FROM extraction_runs WHERE project_id = ? AND id <= (
         SELECT id FROM extraction_runs WHERE project_id = ? ORDER BY id DESC LIMIT 1 OFFSET ?)`,
    ).run(projectId, projectId, KEEP);
  })();
}

/** The project's latest extractions, newest first (none on a store older than migration 15). */
export function latestExtractionRuns(db: Db, projectId: string, limit = 5): ExtractionRun[] {
  const has = db
    .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'extraction_runs'")
    .get();
  if (!has) return [];
  return db
    .prepare(
      `SELECT session_id, at, via, mode, configured, backend, model, calls, cost_usd, reason
       FROM extraction_runs WHERE project_id = ? ORDER BY id DESC LIMIT ?`,
    )
    .all(projectId, limit) as ExtractionRun[];
}
