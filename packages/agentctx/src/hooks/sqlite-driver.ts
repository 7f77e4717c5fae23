// Built on its own into dist/sqlite-driver.cjs: better-sqlite3's JavaScript in one file, so the
// hooks that open the store load one compiled file instead of a dozen modules, and the hooks
// that never touch SQLite do not parse it at all.
import Database from 'better-sqlite3';

export default Database;
