import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import type BetterSqlite3 from 'better-sqlite3';
import { syncFtsIndex } from './fts-index.js';
import { migrate, SCHEMA_VERSION } from './migrations.js';

/**
 * How every agentctx connection is opened, whichever way better-sqlite3 was loaded (the CLI
 * imports it; the hooks load it lazily): private files, WAL, busy timeout, foreign keys,
 * migrations, the full-text index. No driver import here, so the hook bundle can use it
 * without loading SQLite.
 */

export type Db = BetterSqlite3.Database;
export type DatabaseCtor = new (path: string, opts?: Record<string, unknown>) => Db;

export interface OpenOptions {
  /** Milliseconds a writer waits for a lock held by another process before failing. */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /** Path of better-sqlite3's native addon, when it was located without `bindings`. */
  nativeBinding?: string | null;
}

/** Address space SQLite may map for reads (not memory used: pages load as they are touched). */
const MMAP_BYTES = 256 * 1024 * 1024;

/** Create a folder readable by its owner only. */
export function ensurePrivateDir(dir: string): void {
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true, mode: 0o700 });
}

function tightenFile(path: string): void {
  try {
    if (existsSync(path)) chmodSync(path, 0o600);
  } catch {
    // best effort: a file we cannot chmod is still usable
  }
}

/** Open (creating if needed) the store at `path` with the given driver. */
export function openWith(Database: DatabaseCtor, path: string, opts: OpenOptions = {}): Db {
  ensurePrivateDir(dirname(path));
  const fresh = !existsSync(path);
  // Create the file 0600 ourselves: SQLite gives the -wal and -shm files the same mode.
  if (fresh && !opts.readonly) closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path, {
    readonly: opts.readonly ?? false,
    ...(opts.nativeBinding ? { nativeBinding: opts.nativeBinding } : {}),
  });
  // One exec for the settings (each pragma call is a statement prepared in JavaScript).
  // mmap: reads through a memory map instead of a read() per page; a hook's cold search
  // touches thousands of index and row pages (about 30% of its time at 10,000 records).
  db.exec(
    `PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs ?? 10000)}; PRAGMA foreign_keys = ON; PRAGMA mmap_size = ${MMAP_BYTES};${opts.readonly ? '' : ' PRAGMA synchronous = NORMAL;'}`,
  );
  if (!opts.readonly && (fresh || db.pragma('journal_mode', { simple: true }) !== 'wal'))
    db.pragma('journal_mode = WAL');
  if (!opts.readonly) {
    if ((db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) migrate(db);
    // the full-text index where this SQLite has FTS5, paused where it has not (SPEC §8 rung 4)
    syncFtsIndex(db);
  }
  if (fresh) {
    for (const suffix of ['', '-wal', '-shm']) tightenFile(path + suffix);
  }
  return db;
}
