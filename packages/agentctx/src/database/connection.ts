import { chmodSync, closeSync, existsSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensurePrivateDir } from '../files/private-dir.js';
import { syncFtsIndex } from './fts-index.js';
import { migrate, SCHEMA_VERSION } from './migrations.js';
import { installRetirementScope } from './retirement.js';
import type { Db, DbOptions } from './sqlite.js';

/**
 * How every agentctx connection is opened: private files, WAL, busy timeout, foreign keys,
 * migrations, the full-text index. The connection class is a parameter so that tests can open
 * stores through a variant of it (test/support/no-fts5.ts); database/open.ts passes the driver.
 */

export type { Db };
export type DatabaseCtor = new (path: string, opts?: DbOptions) => Db;

export interface OpenOptions {
  /** Milliseconds a writer waits for a lock held by another process before failing. */
  busyTimeoutMs?: number;
  readonly?: boolean;
  /**
   * For readers: when the store exists but cannot be opened for lack of a write (a full disk
   * or a read-only home: WAL mode creates and sizes the -shm file even to read), read an
   * in-memory snapshot of it instead, read-only. See openSnapshot.
   */
  readFallback?: boolean;
}

/** Address space SQLite may map for reads (not memory used: pages load as they are touched). */
const MMAP_BYTES = 256 * 1024 * 1024;

function tightenFile(path: string): void {
  try {
    if (existsSync(path)) chmodSync(path, 0o600);
  } catch {
    // best effort: a file we cannot chmod is still usable
  }
}

/** Open (creating if needed) the store at `path` with the given driver. */
export function openWith(Database: DatabaseCtor, path: string, opts: OpenOptions = {}): Db {
  try {
    return openLive(Database, path, opts);
  } catch (err) {
    if (!opts.readFallback || !needsWrite(err) || !existsSync(path)) throw err;
    return openSnapshot(Database, path, err);
  }
}

function openLive(Database: DatabaseCtor, path: string, opts: OpenOptions): Db {
  ensurePrivateDir(dirname(path));
  const fresh = !existsSync(path);
  // Create the file 0600 ourselves: SQLite gives the -wal and -shm files the same mode.
  if (fresh && !opts.readonly) closeSync(openSync(path, 'a', 0o600));
  const db = new Database(path, {
    readonly: opts.readonly ?? false,
    timeout: opts.busyTimeoutMs ?? 10000,
  });
  try {
    // One exec for the settings (each pragma call is a statement prepared in JavaScript).
    // mmap: reads through a memory map instead of a read() per page; a hook's cold search
    // touches thousands of index and row pages (about 30% of its time at 10,000 records).
    db.exec(
      `PRAGMA busy_timeout = ${Math.trunc(opts.busyTimeoutMs ?? 10000)}; PRAGMA foreign_keys = ON; PRAGMA mmap_size = ${MMAP_BYTES};${opts.readonly ? '' : ' PRAGMA synchronous = NORMAL;'}`,
    );
    // every transaction counts the retirements it commits (CONTRACTS.md §inv-3;
    // database/retirement.ts)
    installRetirementScope(db);
    if (!opts.readonly && (fresh || db.pragma('journal_mode', { simple: true }) !== 'wal'))
      db.pragma('journal_mode = WAL');
    if (!opts.readonly) {
      if ((db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) migrate(db);
      // the full-text index where this SQLite has FTS5, paused where it has not (CONTRACTS.md
      // §rung-4)
      syncFtsIndex(db);
    }
  } catch (err) {
    db.close();
    throw err;
  }
  if (fresh) {
    for (const suffix of ['', '-wal', '-shm']) tightenFile(path + suffix);
  }
  return db;
}

/** Errors that mean "this needed a write the file system refused", not a damaged store. */
export function needsWrite(err: unknown): boolean {
  const code = String((err as { code?: unknown })?.code ?? '');
  return (
    code === 'SQLITE_FULL' ||
    code.startsWith('SQLITE_IOERR') ||
    code.startsWith('SQLITE_CANTOPEN') ||
    code.startsWith('SQLITE_READONLY') ||
    ['ENOSPC', 'EROFS', 'EACCES', 'EPERM', 'EDQUOT'].includes(code)
  );
}

/** Why each snapshot connection is one (the error that prevented the live open). */
const snapshots = new WeakMap<Db, string>();

/** Why `db` is a read-only snapshot rather than the live store, or null when it is the store. */
export function snapshotReason(db: Db): string | null {
  return snapshots.get(db) ?? null;
}

/**
 * The store opened read-only as an immutable file. In WAL mode SQLite needs a writable, sized
 * -shm file even to read, so a full disk or a read-only home stops every read; an immutable
 * open takes no lock and needs no -shm, and reads pages from the file as they are needed (no
 * copy in memory, whatever the store's size). It is exact when no committed change waits in
 * the -wal file, which is the only case it is used for: with a non-empty -wal the original
 * error stands (another process has the store open, and then the -shm exists and reads rarely
 * fail this way).
 */
function openSnapshot(Database: DatabaseCtor, path: string, cause: unknown): Db {
  const wal = statSync(`${path}-wal`, { throwIfNoEntry: false });
  if (wal && wal.size > 0) throw cause;
  const db = new Database(`${pathToFileURL(path).href}?immutable=1`, { readonly: true });
  db.exec('PRAGMA foreign_keys = ON;');
  snapshots.set(db, (cause as Error)?.message ?? String(cause));
  return db;
}
