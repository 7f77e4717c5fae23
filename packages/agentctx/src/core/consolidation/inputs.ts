import type { Db } from '../../database/open.js';
import type { DupInput } from './duplicates.js';
import type { ScoreInput } from './scores.js';

/** What the run's steps read: the committed, current records of the run's namespaces. */

function marks(namespaces: readonly string[]): string {
  return namespaces.map(() => '?').join(',');
}

/** The current records, for the scores. */
export function scoreInputs(db: Db, namespaces: readonly string[]): ScoreInput[] {
  return db
    .prepare(
      `SELECT r.id, r.type, r.pinned, r.confidence, r.valid_from, r.access_count, r.last_accessed, r.score,
         COALESCE(u.shown_count, 0) AS shown_count, COALESCE(u.used_count, 0) AS used_count,
         COALESCE(u.contradicted_count, 0) AS contradicted_count
       FROM records r LEFT JOIN record_usage u ON u.record_id = r.id
       WHERE r.project_id IN (${marks(namespaces)}) AND r.superseded_at IS NULL`,
    )
    .all(...namespaces) as ScoreInput[];
}

/** The current records that may have duplicates (not handovers nor profile facts). */
export function dupInputs(db: Db, namespaces: readonly string[]): DupInput[] {
  return db
    .prepare(
      `SELECT id, project_id, type, title, body, pinned, confidence, reinforce_count, access_count,
         last_accessed, recorded_at FROM records
       WHERE project_id IN (${marks(namespaces)}) AND superseded_at IS NULL AND type NOT IN ('handover', 'profile')`,
    )
    .all(...namespaces) as DupInput[];
}

/** The records with these ids, as the exact-duplicate plan reads them (current ones only). */
export function dupInputsOf(db: Db, ids: readonly string[]): DupInput[] {
  const out: DupInput[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    out.push(
      ...(db
        .prepare(
          `SELECT id, project_id, type, title, body, pinned, confidence, reinforce_count, access_count,
             last_accessed, recorded_at FROM records
           WHERE id IN (${marks(chunk)}) AND superseded_at IS NULL`,
        )
        .all(...chunk) as DupInput[]),
    );
  }
  return out;
}
