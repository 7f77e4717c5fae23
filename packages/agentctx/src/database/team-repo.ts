import type { Db } from './open.js';

/**
 * Team context state (migration 7): which block of `.agentctx/context.md` stands for which
 * supersession chain of this store, the block's hash when it was last exported or imported,
 * whether the developer promoted the chain, and the file's hash at the last export or import.
 */

export interface TeamLink {
  project_id: string;
  /** The block id in the file: stable along the chain. */
  key: string;
  /** A record of the chain (its head is found through superseded_by). */
  record_id: string;
  /** Hash of the block as last written or read; '' = never in the file. */
  synced_sha: string;
  promoted: number;
  /**
   * An earlier `valid_from` another clone gave the same text of the head `record_id` names: the
   * file shows the earliest, so clones that found one fact apart write the same marker.
   */
  shown_valid_from: string | null;
}

interface TeamSync {
  project_id: string;
  file_sha: string;
  synced_at: string;
  action: 'export' | 'import';
}

export function listTeamLinks(db: Db, projectId: string): TeamLink[] {
  return db
    .prepare('SELECT * FROM team_links WHERE project_id = ? ORDER BY key')
    .all(projectId) as TeamLink[];
}

/** Insert or replace the link of `key`; `promoted` is kept when the row exists and none is given. */
export function upsertTeamLink(
  db: Db,
  link: {
    project_id: string;
    key: string;
    record_id: string;
    synced_sha: string;
    promoted?: boolean;
    shown_valid_from?: string | null;
  },
): void {
  db.prepare(
    `INSERT INTO team_links (project_id, key, record_id, synced_sha, promoted, shown_valid_from)
     VALUES (@project_id, @key, @record_id, @synced_sha, @promoted, @shown_valid_from)
     ON CONFLICT (project_id, key) DO UPDATE SET
       record_id = excluded.record_id,
       synced_sha = excluded.synced_sha,
       promoted = CASE WHEN @keep THEN team_links.promoted ELSE excluded.promoted END,
       shown_valid_from = excluded.shown_valid_from`,
  ).run({
    project_id: link.project_id,
    key: link.key,
    record_id: link.record_id,
    synced_sha: link.synced_sha,
    promoted: link.promoted ? 1 : 0,
    keep: link.promoted === undefined ? 1 : 0,
    shown_valid_from: link.shown_valid_from ?? null,
  });
}

export function getTeamSync(db: Db, projectId: string): TeamSync | undefined {
  return db.prepare('SELECT * FROM team_sync WHERE project_id = ?').get(projectId) as TeamSync | undefined;
}

export function setTeamSync(db: Db, sync: TeamSync): void {
  db.prepare(
    `INSERT INTO team_sync (project_id, file_sha, synced_at, action) VALUES (@project_id, @file_sha, @synced_at, @action)
     ON CONFLICT (project_id) DO UPDATE SET file_sha = excluded.file_sha, synced_at = excluded.synced_at,
       action = excluded.action`,
  ).run(sync);
}

export function deleteTeamLink(db: Db, projectId: string, key: string): void {
  db.prepare('DELETE FROM team_links WHERE project_id = ? AND key = ?').run(projectId, key);
}
