import { createRequire } from 'node:module';
import type { Db } from '../../src/database/open.js';
import { Db as Database } from '../../src/database/sqlite.js';

/**
 * Checks of a store file as SQLite itself sees it, from outside agentctx: the page-level
 * integrity check and FTS5's own check that the full-text index matches the records table.
 * sqlite-vec is loaded when installed, so a store holding its vec0 table checks whole.
 */

const require = createRequire(import.meta.url);

function loadVec(db: Db): void {
  try {
    (require('sqlite-vec') as { load: (d: Db) => void }).load(db);
  } catch {
    // not installed: the vec0 table is then not checked, everything else is
  }
}

/** Open `path` for a check (read-write: FTS5's integrity-check is spelled as an INSERT). */
export function openForCheck(path: string): Db {
  const db = new Database(path);
  db.pragma('busy_timeout = 20000');
  loadVec(db);
  return db;
}

export interface StoreHealth {
  /** PRAGMA integrity_check: 'ok' or the problems it lists. */
  integrity: string;
  /** FTS5 'integrity-check' of records_fts: 'ok' or the error. */
  fts: string;
}

export function storeHealth(path: string): StoreHealth {
  const db = openForCheck(path);
  try {
    const rows = db.prepare('PRAGMA integrity_check').all() as { integrity_check: string }[];
    const integrity = rows.map((r) => r.integrity_check).join('; ');
    let fts = 'ok';
    try {
      db.exec("INSERT INTO records_fts(records_fts) VALUES('integrity-check')");
    } catch (err) {
      fts = (err as Error).message;
    }
    return { integrity, fts };
  } finally {
    db.close();
  }
}

/** Rows of `sql` on `path` (opened read-only). */
export function rowsOf<T = Record<string, unknown>>(path: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path, { readonly: true });
  db.pragma('busy_timeout = 20000');
  loadVec(db);
  try {
    return db.prepare(sql).all(...params) as T[];
  } finally {
    db.close();
  }
}
