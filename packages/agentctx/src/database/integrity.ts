import { Db as Database } from './sqlite.js';

/**
 * The store's health for `agentctx doctor`: SQLite's own integrity check and the full-text
 * index's. Opens the file as it is (no migration, no write), and never creates one.
 */

interface IntegrityReport {
  ok: boolean;
  /** SQLite's answer, cut to a few lines ('ok' when sound). */
  sqlite: string;
  /** The FTS5 index against its content ('ok', or the error). */
  fts: string;
  schemaVersion: number | null;
  records: number | null;
  /** Set when the file could not be read as a database at all. */
  error?: string;
}

export function checkIntegrity(path: string): IntegrityReport {
  let db: InstanceType<typeof Database> | undefined;
  try {
    db = new Database(path, { fileMustExist: true });
    db.pragma('busy_timeout = 2000');
    const rows = db.pragma('integrity_check(20)') as { integrity_check: string }[];
    const sqlite = rows.map((r) => r.integrity_check).join('; ') || 'no answer';
    let fts = 'ok';
    try {
      // FTS5's own check; rank 1 also compares the index with the records it indexes
      db.prepare("INSERT INTO records_fts(records_fts, rank) VALUES('integrity-check', 1)").run();
    } catch (err) {
      fts = (err as Error).message;
    }
    const version = db.pragma('user_version', { simple: true });
    let records: number | null = null;
    try {
      records = (db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
    } catch {
      records = null;
    }
    return {
      ok: sqlite === 'ok' && fts === 'ok',
      sqlite,
      fts,
      schemaVersion: typeof version === 'number' ? version : null,
      records,
    };
  } catch (err) {
    const message = (err as Error).message;
    return {
      ok: false,
      sqlite: message,
      fts: 'not checked',
      schemaVersion: null,
      records: null,
      error: message,
    };
  } finally {
    try {
      db?.close();
    } catch {
      // closing a broken handle
    }
  }
}
