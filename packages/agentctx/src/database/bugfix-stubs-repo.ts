import type { ContextRecord } from '../shared/types.js';
import type { Db } from './open.js';

/**
 * Bugfix stubs (CONTRACTS.md §types): the `bugfix` records PostToolUse capture writes for a failing
 * command (`source = hook_observation`), before extraction enriches them with cause and fix.
 */

/** The current stubs one session left in a project, oldest first. */
export function currentSessionStubs(
  db: Db,
  projectId: string,
  sessionId: string,
  limit: number,
): ContextRecord[] {
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND session_id = ? AND type = 'bugfix'
         AND source = 'hook_observation' AND superseded_at IS NULL
       ORDER BY recorded_at ASC, id ASC LIMIT ?`,
    )
    .all(projectId, sessionId, Math.max(1, Math.floor(limit))) as ContextRecord[];
}

/** Give `toId` every entity link `fromId` has (the files a stub was linked to). */
export function copyRecordEntities(db: Db, fromId: string, toId: string): number {
  return db
    .prepare(
      `INSERT OR IGNORE INTO record_entities (record_id, entity_id)
       SELECT ?, entity_id FROM record_entities WHERE record_id = ?`,
    )
    .run(toId, fromId).changes;
}
