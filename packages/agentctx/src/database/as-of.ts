import type { ContextRecord } from '../shared/types.js';
import type { Db } from './open.js';
import { supersessionChain } from './records-repo.js';

/**
 * History queries (CONTRACTS.md §history) on the bi-temporal columns. A record is valid at `asOf`
 * when it became true by then (`valid_from ≤ asOf`) and was not yet replaced: its validity ends
 * at its successor's `valid_from` (a teammate's change imported later still ended it when it
 * happened), or at `superseded_at` for a record closed without one. `knownAt` adds the second
 * axis, what this store knew then: recorded by then, and a replacement counts only when it was
 * recorded by then too. Without `knownAt`, everything recorded so far counts.
 */
export interface TimeTravel {
  /** ISO instant: what was true then. */
  asOf: string;
  /** ISO instant: as this store knew it then. */
  knownAt?: string;
}

const END = '9999-12-31T23:59:59.999Z';

/** The SQL condition on the records table under `alias`, and its arguments. */
export function timeFilterSql(alias: string, t: TimeTravel): { sql: string; args: string[] } {
  const known = t.knownAt ?? END;
  const r = alias;
  return {
    sql: `(${r}.valid_from <= ? AND ${r}.recorded_at <= ? AND NOT (${r}.superseded_at IS NOT NULL
      AND ${r}.superseded_at <= ?
      AND COALESCE((SELECT s__.valid_from FROM records s__ WHERE s__.id = ${r}.superseded_by), ${r}.superseded_at) <= ?))`,
    args: [t.asOf, known, known, t.asOf],
  };
}

/** Records of these namespaces valid at that time, newest first. */
export function listRecordsAt(
  db: Db,
  f: { namespaces: readonly string[]; types?: readonly string[]; time: TimeTravel },
): ContextRecord[] {
  const tf = timeFilterSql('r', f.time);
  const where = [`r.project_id IN (${f.namespaces.map(() => '?').join(',')})`, tf.sql];
  const args: unknown[] = [...f.namespaces, ...tf.args];
  if (f.types && f.types.length > 0) {
    where.push(`r.type IN (${f.types.map(() => '?').join(',')})`);
    args.push(...f.types);
  }
  return db
    .prepare(`SELECT r.* FROM records r WHERE ${where.join(' AND ')} ORDER BY r.recorded_at DESC, r.id DESC`)
    .all(...args) as ContextRecord[];
}

/** Of these record ids, those valid at that time. */
function validAt(db: Db, ids: readonly string[], time: TimeTravel): ContextRecord[] {
  if (ids.length === 0) return [];
  const tf = timeFilterSql('r', time);
  return db
    .prepare(
      `SELECT r.* FROM records r WHERE r.id IN (SELECT value FROM json_each(?)) AND ${tf.sql}
       ORDER BY r.valid_from DESC, r.id DESC`,
    )
    .all(JSON.stringify(ids), ...tf.args) as ContextRecord[];
}

/** The version of a record's supersession chain that was valid at that time, if any. */
export function chainVersionAt(db: Db, id: string, time: TimeTravel): ContextRecord | undefined {
  return validAt(
    db,
    supersessionChain(db, id).map((r) => r.id),
    time,
  )[0];
}
