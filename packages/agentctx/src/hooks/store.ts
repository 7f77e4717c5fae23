import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type DatabaseCtor, type Db, openWith } from '../storage/connection.js';

/**
 * Opening the store on the hook path: the same connection setup as the CLI
 * (storage/connection.ts), but better-sqlite3 is initialised only when a hook needs the store,
 * and its native addon is loaded by path (skipping the `bindings` lookup): a hook that does not
 * touch SQLite (SessionStart with a digest, CwdChanged, a Stop with nothing to account) does
 * not pay for it. `./sqlite-driver.cjs` is either dist/sqlite-driver.cjs or, in the bundles of
 * the hooks that usually open the store, that same code built in (scripts/build.mjs).
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
 * better_sqlite3.node where Node would find the package from `dir`: in a node_modules folder of
 * it or of an ancestor. A few existsSync calls instead of the module resolver (which also
 * reads package.json files on the way), about half a millisecond of every prompt.
 */
function findAddon(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    const p = join(d, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    if (existsSync(p)) return p;
    if (dirname(d) === d) return null;
  }
}

/**
 * better-sqlite3, loaded only when a hook needs the store: its JavaScript from the one-file
 * build (dist/sqlite-driver.cjs) and its native addon by path. Where either is missing, the
 * installed package is loaded as usual.
 */
function loadDriver(): { Database: DatabaseCtor; nativeBinding: string | null } {
  if (addonPath === undefined) addonPath = findAddon(dirname(fileURLToPath(import.meta.url)));
  if (!ctor)
    ctor =
      (addonPath ? bundledDriver() : null) ??
      (createRequire(import.meta.url)('better-sqlite3') as DatabaseCtor);
  return { Database: ctor, nativeBinding: addonPath };
}

export function openHookStore(path: string, busyTimeoutMs = 15000): Db {
  const { Database, nativeBinding } = loadDriver();
  return openWith(Database, path, { busyTimeoutMs, nativeBinding, readFallback: true }); // reads survive a full disk
}
