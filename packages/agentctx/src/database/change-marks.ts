import { createHash } from 'node:crypto';
import type { Db } from './open.js';

/**
 * What lets a consolidation rerun tell that what it read last time is unchanged (issue 20):
 * the record-change counter (migration 14) and a digest of a project's stored drift scores.
 */

/**
 * The record-change counter as `epoch:seq`: every insert, delete and update of a record's stored
 * fields moves it. Null when the row is gone (nothing can be known unchanged then).
 */
export function recordChangeMark(db: Db): string | null {
  const row = db.prepare('SELECT epoch, seq FROM record_changes WHERE id = 1').get() as
    | { epoch: string; seq: number }
    | undefined;
  return row ? `${row.epoch}:${row.seq}` : null;
}

/**
 * A digest of the project's non-zero drift scores: a derived column anyone may clear (CONTRACTS.md
 * §stored-derived), so a rerun reuses the last drift result only while the scores it wrote are
 * still there.
 */
export function driftScoresDigest(db: Db, projectId: string): string {
  const rows = db
    .prepare(
      `SELECT id, claudemd_drift_score AS s FROM records
       WHERE project_id = ? AND claudemd_drift_score != 0 ORDER BY id`,
    )
    .all(projectId) as { id: string; s: number }[];
  const h = createHash('sha256');
  for (const r of rows) h.update(`${r.id}\u0000${r.s}\u0000`);
  return h.digest('base64url');
}
