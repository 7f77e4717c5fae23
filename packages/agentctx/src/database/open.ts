import { type DatabaseCtor, type Db, type OpenOptions, openWith } from './connection.js';
import { Db as SqliteDb } from './sqlite.js';

export { type Db, needsWrite, type OpenOptions, snapshotReason } from './connection.js';

/** Open (creating if needed) the store at `path`: WAL, busy timeout, foreign keys, migrations. */
export function openDb(path: string, opts: OpenOptions = {}): Db {
  return openWith(SqliteDb as DatabaseCtor, path, opts);
}
