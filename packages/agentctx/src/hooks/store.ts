import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { type DatabaseCtor, type Db, openWith } from '../storage/connection.js';

/**
 * Opening the store on the hook path: the same connection setup as the CLI
 * (storage/connection.ts), but better-sqlite3 is loaded only when a hook needs
 * the store, and its native addon by path (skipping the `bindings` lookup): hooks that never
 * touch SQLite (SessionStart with a digest, CwdChanged, Stop) do not pay for it.
 */

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
  return openWith(Database, path, { busyTimeoutMs, nativeBinding });
}
