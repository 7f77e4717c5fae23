/**
 * SQLite's result codes by name (https://sqlite.org/rescode.html), for database/sqlite.ts: an
 * error's `code` is the extended code's name where SQLite gave one (`SQLITE_IOERR_WRITE`), else
 * the primary code's (`SQLITE_IOERR`). Callers test `code === 'SQLITE_FULL'` or
 * `code.startsWith('SQLITE_BUSY')`.
 */

const PRIMARY = [
  'OK',
  'ERROR',
  'INTERNAL',
  'PERM',
  'ABORT',
  'BUSY',
  'LOCKED',
  'NOMEM',
  'READONLY',
  'INTERRUPT',
  'IOERR',
  'CORRUPT',
  'NOTFOUND',
  'FULL',
  'CANTOPEN',
  'PROTOCOL',
  'EMPTY',
  'SCHEMA',
  'TOOBIG',
  'CONSTRAINT',
  'MISMATCH',
  'MISUSE',
  'NOLFS',
  'AUTH',
  'FORMAT',
  'RANGE',
  'NOTADB',
  'NOTICE',
  'WARNING',
];

/** Extended codes: primary code | (n << 8), by primary name and n. */
const EXTENDED: Record<string, string[]> = {
  ERROR: ['', 'MISSING_COLLSEQ', 'RETRY', 'SNAPSHOT'],
  IOERR: [
    '',
    'READ',
    'SHORT_READ',
    'WRITE',
    'FSYNC',
    'DIR_FSYNC',
    'TRUNCATE',
    'FSTAT',
    'UNLOCK',
    'RDLOCK',
    'DELETE',
    'BLOCKED',
    'NOMEM',
    'ACCESS',
    'CHECKRESERVEDLOCK',
    'LOCK',
    'CLOSE',
    'DIR_CLOSE',
    'SHMOPEN',
    'SHMSIZE',
    'SHMLOCK',
    'SHMMAP',
    'SEEK',
    'DELETE_NOENT',
    'MMAP',
    'GETTEMPPATH',
    'CONVPATH',
    'VNODE',
    'AUTH',
    'BEGIN_ATOMIC',
    'COMMIT_ATOMIC',
    'ROLLBACK_ATOMIC',
    'DATA',
    'CORRUPTFS',
    'IN_PAGE',
  ],
  LOCKED: ['', 'SHAREDCACHE', 'VTAB'],
  BUSY: ['', 'RECOVERY', 'SNAPSHOT', 'TIMEOUT'],
  CANTOPEN: ['', 'NOTEMPDIR', 'ISDIR', 'FULLPATH', 'CONVPATH', 'DIRTYWAL', 'SYMLINK'],
  CORRUPT: ['', 'VTAB', 'SEQUENCE', 'INDEX'],
  READONLY: ['', 'RECOVERY', 'CANTLOCK', 'ROLLBACK', 'DBMOVED', 'CANTINIT', 'DIRECTORY'],
  ABORT: ['', 'ROLLBACK'],
  CONSTRAINT: [
    '',
    'CHECK',
    'COMMITHOOK',
    'FOREIGNKEY',
    'FUNCTION',
    'NOTNULL',
    'PRIMARYKEY',
    'TRIGGER',
    'UNIQUE',
    'VTAB',
    'ROWID',
    'PINNED',
    'DATATYPE',
  ],
  NOTICE: ['', 'RECOVER_WAL', 'RECOVER_ROLLBACK', 'RBU'],
  WARNING: ['', 'AUTOINDEX'],
  AUTH: ['', 'USER'],
  OK: ['', 'LOAD_PERMANENTLY', 'SYMLINK'],
};

/** `SQLITE_<NAME>` for a (possibly extended) result code; `SQLITE_UNKNOWN_<n>` when unlisted. */
export function sqliteCodeName(errcode: number): string {
  const primary = PRIMARY[errcode & 0xff];
  if (primary === undefined) return `SQLITE_UNKNOWN_${errcode}`;
  const ext = errcode >> 8;
  if (ext === 0) return `SQLITE_${primary}`;
  const name = EXTENDED[primary]?.[ext];
  return name ? `SQLITE_${primary}_${name}` : `SQLITE_${primary}`;
}
