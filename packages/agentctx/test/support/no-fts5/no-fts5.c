/*
 * A SQLite extension that takes FTS5 away from the connection that loads it: every virtual-table
 * module except fts5 and fts5vocab is kept (sqlite3_drop_modules, SQLite 3.30+). The connection
 * then behaves as one from a SQLite built without FTS5: "no such module: fts5" for any use of an
 * FTS5 table, old or new. Test support only (see no-fts5.ts); never shipped.
 */
#include <string.h>
#include "sqlite3ext.h"
SQLITE_EXTENSION_INIT1

#define MAX_KEEP 128

int sqlite3_nofts5_init(sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  static char names[MAX_KEEP][64];
  const char *keep[MAX_KEEP + 1];
  int n = 0;
  sqlite3_stmt *stmt = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT name FROM pragma_module_list", -1, &stmt, 0);
  if (rc != SQLITE_OK) return rc;
  while (sqlite3_step(stmt) == SQLITE_ROW && n < MAX_KEEP) {
    const char *name = (const char *)sqlite3_column_text(stmt, 0);
    if (!name || strcmp(name, "fts5") == 0 || strcmp(name, "fts5vocab") == 0) continue;
    strncpy(names[n], name, sizeof names[n] - 1);
    names[n][sizeof names[n] - 1] = 0;
    keep[n] = names[n];
    n++;
  }
  sqlite3_finalize(stmt);
  keep[n] = 0;
  (void)err;
  return sqlite3_drop_modules(db, keep);
}
