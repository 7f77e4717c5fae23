import { createHash } from 'node:crypto';
import { ftsUsable } from './fts-index.js';
import type { Db } from './open.js';
import { clearTermDf, refreshTermDf } from './term-df.js';

/**
 * The store side of the secret scrub (core/redaction/scrub.ts): which columns hold free text,
 * reading them in rowid order, rewriting a row in place, and making the old bytes unreachable
 * afterwards (FTS segments merged, the word-frequency copy rebuilt, freed pages zeroed or the
 * file rebuilt, the WAL truncated).
 */

/**
 * Every column of the schema that holds free text a person or a model wrote, by table. The
 * scrub reads and rewrites these; a new table or column holding such text must be listed here
 * (test/unit/database/scrub-repo.test.ts fails until every TEXT column is either here or in
 * NOT_FREE_TEXT).
 */
export const SCRUBBED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  records: ['title', 'body'],
};

/**
 * TEXT columns that hold no free text: ids, names of types and states, timestamps, file paths
 * and branch names (which the gate does not redact either), JSON of counts and watermarks.
 * `term_df.term` is derived from the full-text index and rebuilt after a scrub that changed
 * anything.
 */
export const NOT_FREE_TEXT: Readonly<Record<string, readonly string[]>> = {
  records: [
    'id',
    'project_id',
    'type',
    'scope',
    'confidence',
    'valid_from',
    'recorded_at',
    'superseded_at',
    'superseded_by',
    'last_accessed',
    'source',
    'session_id',
    // a hash of the normalised type, title and body (migration 14): a trigger clears it when the
    // scrub rewrites the title or body, and consolidation computes it again from the new text
    'content_key',
    // the writing agent's name ('claude-code', 'codex'; migration 17)
    'agent',
  ],
  nodes: ['id', 'project_id', 'kind', 'name'],
  edges: ['id', 'from_id', 'to_id', 'rel_type'],
  record_entities: ['record_id', 'entity_id'],
  sessions: ['session_id', 'project_id', 'started_at', 'ended_at', 'cwd'],
  session_journal: ['file', 'file_id', 'updated_at'],
  merge_candidates: ['project_id', 'type', 'record_a', 'record_b', 'detected_at', 'status'],
  merge_dismissals: ['project_id', 'id_a', 'id_b', 'dismissed_at'],
  consolidation_runs: ['project_id', 'started_at', 'finished_at', 'summary'],
  extraction_state: ['session_id', 'transcript_path', 'updated_at'],
  extraction_costs: ['day'],
  records_vec_js: ['record_id'],
  embedding_meta: ['key', 'value'],
  term_df: ['term'],
  term_df_meta: ['key', 'value'],
  scrub_state: ['key', 'value'],
  team_links: ['project_id', 'key', 'record_id', 'synced_sha', 'shown_valid_from'],
  team_sync: ['project_id', 'file_sha', 'synced_at', 'action'],
  file_anchors: ['record_id', 'path', 'content_hash', 'sketch', 'commit_sha', 'anchored_at'],
  record_staleness: ['record_id', 'project_id', 'path', 'state', 'new_path', 'checked_at'],
  session_shown: ['session_id', 'record_id', 'via', 'shown_at', 'verdict', 'evidence', 'judged_at'],
  record_usage: ['record_id', 'last_shown_at', 'last_used_at'],
  record_changes: ['epoch'],
  // which backend an extraction used (migration 15); `reason` is passed through the redaction
  // gate when it is written (it may quote a model's error)
  extraction_runs: [
    'project_id',
    'session_id',
    'at',
    'via',
    'mode',
    'configured',
    'backend',
    'model',
    'reason',
  ],
  // a team conflict's record ids and the dates the file gave its versions (migration 16)
  team_conflicts: ['project_id', 'key', 'record_ids', 'dates', 'detected_at'],
};

const IDENT = /^[a-z_][a-z0-9_]*$/;

function ident(name: string): string {
  if (!IDENT.test(name)) throw new Error(`not a plain SQL name: ${name}`);
  return name;
}

export function readScrubState<T>(db: Db, key: string): T | undefined {
  const row = db.prepare('SELECT value FROM scrub_state WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  if (!row) return undefined;
  try {
    return JSON.parse(row.value) as T;
  } catch {
    return undefined; // a damaged row: start that part over
  }
}

export function writeScrubState(db: Db, key: string, value: unknown): void {
  db.prepare(
    'INSERT INTO scrub_state (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
  ).run(key, JSON.stringify(value));
}

export type TextRow = { rowid: number } & Record<string, string | number | null>;

/** Up to `limit` rows of `table` with rowid above `after`, in rowid order: rowid and `columns`. */
export function rowsAfter(
  db: Db,
  table: string,
  columns: readonly string[],
  after: number,
  limit: number,
): TextRow[] {
  const cols = columns.map(ident).join(', ');
  return db
    .prepare(`SELECT rowid, ${cols} FROM ${ident(table)} WHERE rowid > ? ORDER BY rowid LIMIT ?`)
    .all(after, limit) as TextRow[];
}

/**
 * Rewrite the given columns of one row, only while they still hold what was read (`was`): a
 * row changed meanwhile is left for the next pass. Returns whether it was rewritten.
 */
export function rewriteRow(
  db: Db,
  table: string,
  rowid: number,
  was: Record<string, string>,
  now: Record<string, string>,
): boolean {
  const names = Object.keys(now).map(ident);
  const set = names.map((c) => `${c} = ?`).join(', ');
  const guard = names.map((c) => `${c} = ?`).join(' AND ');
  const extra = table === 'records' ? ', pending_embedding = 1' : '';
  const res = db
    .prepare(`UPDATE ${ident(table)} SET ${set}${extra} WHERE rowid = ? AND ${guard}`)
    .run(...names.map((c) => now[c]), rowid, ...names.map((c) => was[c]));
  return res.changes === 1;
}

/**
 * Drop a record's stored vector in the JavaScript store; the record is pending again, so the
 * next backfill embeds the new text. sqlite-vec's rows: dropSqliteVecRows.
 */
export function dropRecordVectors(db: Db, recordId: string): number {
  return db.prepare('DELETE FROM records_vec_js WHERE record_id = ?').run(recordId).changes;
}

export function hasSqliteVecTable(db: Db): boolean {
  return Boolean(
    db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'records_vec'").get(),
  );
}

/** Drop these records' rows of sqlite-vec's table (the extension must be loaded on `db`). */
export function dropSqliteVecRows(db: Db, recordIds: readonly string[]): number {
  const del = db.prepare('DELETE FROM records_vec WHERE record_id = ?');
  return db.transaction(() => recordIds.reduce((n, id) => n + del.run(id).changes, 0)).immediate();
}

/** Overwrite freed content with zeros on this connection (SQLite's secure_delete); returns the old setting. */
export function setSecureDelete(db: Db, on: boolean): boolean {
  const was = db.pragma('secure_delete', { simple: true }) === 1;
  db.pragma(`secure_delete = ${on ? 1 : 0}`);
  return was;
}

/**
 * Merge the full-text index into one segment: a rewritten row's old words stay in older
 * segments (marked deleted) until a merge drops them.
 */
export function optimizeFts(db: Db): void {
  db.prepare("INSERT INTO records_fts(records_fts) VALUES ('optimize')").run();
}

/** Rebuild the word-frequency copy from the index when there is one (it holds every indexed word). */
export function rebuildTermDf(db: Db): boolean {
  if (!db.prepare('SELECT 1 FROM term_df LIMIT 1').get()) return false;
  db.transaction(() => clearTermDf(db)).immediate();
  refreshTermDf(db);
  return true;
}

function rowidDigest(db: Db): string {
  const h = createHash('sha256');
  for (const r of db.prepare('SELECT rowid, id FROM records ORDER BY rowid').iterate() as Iterable<{
    rowid: number;
    id: string;
  }>)
    h.update(`${r.rowid}\u0000${r.id}\n`);
  return h.digest('hex');
}

/**
 * Rebuild the whole file (VACUUM): pages freed before the scrub, by versions that did not zero
 * them, may still hold old text. The full-text index is keyed by the records' rowids; should
 * VACUUM ever renumber them, the index is rebuilt from the records.
 */
export function vacuumStore(db: Db): { fts_rebuilt: boolean } {
  const before = rowidDigest(db);
  db.exec('VACUUM');
  if (rowidDigest(db) === before || !ftsUsable(db)) return { fts_rebuilt: false };
  db.prepare("INSERT INTO records_fts(records_fts) VALUES ('rebuild')").run();
  return { fts_rebuilt: true };
}

/** Copy the WAL into the file and truncate it; false when a reader kept it from finishing. */
export function truncateWal(db: Db): boolean {
  const rows = db.pragma('wal_checkpoint(TRUNCATE)') as { busy: number; log: number }[];
  const r = rows[0];
  return r !== undefined && r.busy === 0 && r.log <= 0;
}
