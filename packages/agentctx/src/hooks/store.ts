import { type Db, openDb } from '../database/open.js';

/**
 * Opening the store on the hook path: the CLI's connection setup (database/connection.ts) with a
 * longer busy timeout, and reads that survive a full disk. SQLite is Node's own (`node:sqlite`),
 * so a hook that never opens the store pays nothing for it and one that does loads no addon.
 */
export function openHookStore(path: string, busyTimeoutMs = 15000): Db {
  return openDb(path, { busyTimeoutMs, readFallback: true });
}
