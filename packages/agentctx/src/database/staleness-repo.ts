import type { StaleFile } from '../shared/stale-label.js';
import type { Db } from './open.js';
import type { Statement } from './sqlite.js';

/**
 * record_staleness (migration 11, derived): the linked files of current records that changed,
 * moved or went since the record was linked. Consolidation replaces a project's rows in one
 * transaction; every surface reads them by record id (no file read, no git).
 */

export interface StalenessRow extends StaleFile {
  record_id: string;
}

export function replaceStaleness(
  db: Db,
  projectId: string,
  rows: readonly StalenessRow[],
  nowIso: string,
): void {
  const del = db.prepare('DELETE FROM record_staleness WHERE project_id = ?');
  const ins = db.prepare(
    `INSERT OR REPLACE INTO record_staleness (record_id, project_id, path, state, new_path, commits, changed_share, checked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  db.transaction(() => {
    del.run(projectId);
    for (const r of rows) {
      ins.run(r.record_id, projectId, r.path, r.state, r.new_path, r.commits, r.changed_share, nowIso);
    }
  }).immediate();
}

/** The stale files of each given record that has any (only current records are ever stale). */
/** Prepared once per handle: every ctx_search labels its hits (preparing cost ~0.1 ms a call). */
const staleFilesQuery = new WeakMap<Db, Statement>();

export function staleFilesOf(db: Db, recordIds: readonly string[]): Map<string, StaleFile[]> {
  const out = new Map<string, StaleFile[]>();
  if (recordIds.length === 0) return out;
  let stmt = staleFilesQuery.get(db);
  if (!stmt) {
    stmt = db.prepare(
      `SELECT s.path, s.state, s.new_path, s.commits, s.changed_share FROM record_staleness s
       JOIN records r ON r.id = s.record_id WHERE s.record_id = ? AND r.superseded_at IS NULL`,
    );
    staleFilesQuery.set(db, stmt);
  }
  for (const id of new Set(recordIds)) {
    const rows = stmt.all(id) as StaleFile[];
    if (rows.length > 0) out.set(id, rows);
  }
  return out;
}

/** Current stale records of the project, most recently checked first. */
export function staleRecordIds(db: Db, projectId: string): string[] {
  const rows = db
    .prepare(
      `SELECT DISTINCT s.record_id AS id FROM record_staleness s JOIN records r ON r.id = s.record_id
       WHERE s.project_id = ? AND r.superseded_at IS NULL ORDER BY r.recorded_at DESC`,
    )
    .all(projectId) as { id: string }[];
  return rows.map((r) => r.id);
}

export function clearStaleness(db: Db, recordId: string): void {
  db.prepare('DELETE FROM record_staleness WHERE record_id = ?').run(recordId);
}
