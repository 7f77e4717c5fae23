import { closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { migrate, SCHEMA_VERSION } from '../storage/migrations.js';
import type { Db } from '../storage/open.js';

/**
 * Opening the store on the hook path. Same settings as storage/open.ts (WAL, busy timeout,
 * foreign keys, migrations when behind), but better-sqlite3 is loaded only when a hook needs
 * the store, and its native addon by path (skipping the `bindings` lookup): hooks that never
 * touch SQLite (SessionStart with a digest, CwdChanged, Stop) do not pay for it.
 */

type DatabaseCtor = new (path: string, opts?: Record<string, unknown>) => Db;

let ctor: DatabaseCtor | undefined;
let addonPath: string | null | undefined;

declare const require: NodeJS.Require | undefined;

/** dist/sqlite-driver.cjs beside the CommonJS hook bundle, or null (tests run the sources). */
function bundledDriver(): DatabaseCtor | null {
  if (typeof require !== 'function') return null;
  try {
    const mod = require('./sqlite-driver.cjs') as { default?: DatabaseCtor };
    return mod.default ?? null;
  } catch {
    return null;
  }
}

/**
 * better-sqlite3, loaded only when a hook needs the store: its JavaScript from the one-file
 * build (dist/sqlite-driver.cjs) and its native addon by path. Where either is missing, the
 * installed package is loaded as usual.
 */
function loadDriver(): { Database: DatabaseCtor; nativeBinding: string | null } {
  const req = createRequire(import.meta.url);
  if (addonPath === undefined) {
    addonPath = null;
    try {
      const p = join(
        dirname(req.resolve('better-sqlite3/package.json')),
        'build',
        'Release',
        'better_sqlite3.node',
      );
      if (existsSync(p)) addonPath = p;
    } catch {
      addonPath = null;
    }
  }
  if (!ctor) ctor = (addonPath ? bundledDriver() : null) ?? (req('better-sqlite3') as DatabaseCtor);
  return { Database: ctor, nativeBinding: addonPath };
}

export function openHookStore(path: string, busyTimeoutMs = 15000): Db {
  const { Database, nativeBinding } = loadDriver();
  const fresh = !existsSync(path);
  if (fresh) {
    // a private folder and a 0600 file (SQLite gives -wal and -shm the same mode)
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    closeSync(openSync(path, 'a', 0o600));
  }
  const db = new Database(path, nativeBinding ? { nativeBinding } : {});
  db.pragma(`busy_timeout = ${busyTimeoutMs}`);
  if (db.pragma('journal_mode', { simple: true }) !== 'wal') db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  if ((db.pragma('user_version', { simple: true }) as number) < SCHEMA_VERSION) migrate(db);
  return db;
}
