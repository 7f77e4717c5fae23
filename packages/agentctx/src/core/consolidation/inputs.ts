import type { Db } from '../../storage/open.js';
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
      `SELECT id, type, pinned, confidence, valid_from, access_count, last_accessed, score FROM records
       WHERE project_id IN (${marks(namespaces)}) AND superseded_at IS NULL`,
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
