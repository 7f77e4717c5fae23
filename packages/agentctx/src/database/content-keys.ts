import type { Db } from './open.js';

/**
 * The stored content keys of records (migration 14) and the record-change counter. A key is a
 * hash of the record's normalised type, title and body, computed by consolidation
 * (core/consolidation/exact-merges.ts) for current records that lack one; a trigger sets it back
 * to NULL whenever the type, title or body is rewritten, so a key present is always the key of
 * the text beside it.
 */

function marks(namespaces: readonly string[]): string {
  return namespaces.map(() => '?').join(',');
}

/** A current record without a key: what the key is computed from. */
interface UnkeyedRow {
  id: string;
  type: string;
  title: string;
  body: string;
}

export function unkeyedCurrent(db: Db, namespaces: readonly string[]): UnkeyedRow[] {
  return db
    .prepare(
      `SELECT id, type, title, body FROM records
       WHERE project_id IN (${marks(namespaces)}) AND superseded_at IS NULL AND content_key IS NULL`,
    )
    .all(...namespaces) as UnkeyedRow[];
}

/**
 * A writer for keys: each is stored only while the row still holds the text it was computed
 * from (a row rewritten meanwhile keeps NULL, and the next run keys it). Returns whether it was.
 */
export function keyWriter(db: Db): (row: UnkeyedRow, key: string) => boolean {
  const set = db.prepare(
    `UPDATE records SET content_key = ?
     WHERE id = ? AND type = ? AND title = ? AND body = ? AND content_key IS NULL`,
  );
  return (row, key) => set.run(key, row.id, row.type, row.title, row.body).changes === 1;
}

/**
 * The ids of the current records that share their key with another current record of the same
 * namespace (types in `skip` aside), read from the partial index `records_current_content_key`.
 */
export function sharedKeyIds(db: Db, namespaces: readonly string[], skip: readonly string[]): string[] {
  const skipMarks = skip.length ? skip.map(() => '?').join(',') : "''";
  const rows = db
    .prepare(
      `SELECT r.id FROM (
         SELECT project_id, content_key FROM records
         WHERE project_id IN (${marks(namespaces)}) AND superseded_at IS NULL AND content_key IS NOT NULL
           AND type NOT IN (${skipMarks})
         GROUP BY project_id, content_key HAVING COUNT(*) > 1
       ) g JOIN records r ON r.project_id = g.project_id AND r.content_key = g.content_key
       WHERE r.superseded_at IS NULL AND r.type NOT IN (${skipMarks})`,
    )
    .all(...namespaces, ...skip, ...skip) as { id: string }[];
  return rows.map((r) => r.id);
}
