import type { Db } from './open.js';

/** A key of the team file changed on both sides, waiting for a person to choose a version. */
export interface TeamConflict {
  project_id: string;
  key: string;
  /** The records holding the competing versions, the one current at detection last. */
  record_ids: string[];
  /** The earliest date the file gave each version's text (block hash → valid_from): export shows it. */
  dates: Record<string, string>;
  detected_at: string;
}

function hasTable(db: Db): boolean {
  return !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'team_conflicts'").get();
}

export function listTeamConflicts(db: Db, projectId: string): TeamConflict[] {
  if (!hasTable(db)) return []; // a read-only snapshot of a store older than migration 16
  const rows = db
    .prepare('SELECT * FROM team_conflicts WHERE project_id = ? ORDER BY detected_at, key')
    .all(projectId) as (Omit<TeamConflict, 'record_ids' | 'dates'> & { record_ids: string; dates: string })[];
  return rows.map((r) => ({
    ...r,
    record_ids: JSON.parse(r.record_ids) as string[],
    dates: JSON.parse(r.dates) as Record<string, string>,
  }));
}

/** Note (or widen) a conflict: the ids and dates already noted for the key stay, new ones are added. */
export function noteTeamConflict(db: Db, c: TeamConflict): void {
  const old = db
    .prepare('SELECT record_ids, dates FROM team_conflicts WHERE project_id = ? AND key = ?')
    .get(c.project_id, c.key) as { record_ids: string; dates: string } | undefined;
  const ids = [...new Set([...(old ? (JSON.parse(old.record_ids) as string[]) : []), ...c.record_ids])];
  const dates: Record<string, string> = old ? (JSON.parse(old.dates) as Record<string, string>) : {};
  for (const [sha, at] of Object.entries(c.dates)) if (!dates[sha] || at < dates[sha]) dates[sha] = at;
  db.prepare(
    `INSERT INTO team_conflicts (project_id, key, record_ids, dates, detected_at) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT(project_id, key) DO UPDATE SET record_ids = excluded.record_ids, dates = excluded.dates`,
  ).run(c.project_id, c.key, JSON.stringify(ids), JSON.stringify(dates), c.detected_at);
}

export function clearTeamConflict(db: Db, projectId: string, key: string): void {
  db.prepare('DELETE FROM team_conflicts WHERE project_id = ? AND key = ?').run(projectId, key);
}
