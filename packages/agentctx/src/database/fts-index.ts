import type { Db, Statement } from './sqlite.js';

/**
 * The full-text index over records (records_fts, its three sync triggers and the fts5vocab
 * table), kept out of the migrations because it exists only where SQLite has FTS5
 * (CONTRACTS.md §rung-4). Every writable connection runs `syncFtsIndex` after migrating:
 * - FTS5 present, index complete (the usual case): one query, nothing else;
 * - FTS5 present, index missing or its triggers gone: the missing parts are created and the
 *   index is rebuilt from the records (a store made, or written, without FTS5);
 * - FTS5 missing, triggers present: the triggers are dropped, or no record could be written
 *   (each write would fire an FTS5 insert). The index is left as it is, stale from then on,
 *   and rebuilt by the next connection that has FTS5;
 * - FTS5 missing, no triggers: nothing to do.
 * So "the index is usable" means: this connection has FTS5 and all five objects exist. Only
 * `fts5Available` decides whether FTS5 is there.
 */

const TRIGGERS = ['records_fts_ai', 'records_fts_ad', 'records_fts_au'] as const;
const OBJECTS = ['records_fts', 'records_fts_vocab', ...TRIGGERS] as const;

const CREATE_INDEX = `
  CREATE VIRTUAL TABLE IF NOT EXISTS records_fts USING fts5(title, body, content=records, content_rowid=rowid);
  CREATE TRIGGER IF NOT EXISTS records_fts_ai AFTER INSERT ON records BEGIN
    INSERT INTO records_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body);
  END;
  CREATE TRIGGER IF NOT EXISTS records_fts_ad AFTER DELETE ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
  END;
  CREATE TRIGGER IF NOT EXISTS records_fts_au AFTER UPDATE OF title, body ON records BEGIN
    INSERT INTO records_fts(records_fts, rowid, title, body) VALUES ('delete', old.rowid, old.title, old.body);
    INSERT INTO records_fts(rowid, title, body) VALUES (new.rowid, new.title, new.body);
  END;
  -- Document frequencies, read to keep the rarest words of a long query.
  CREATE VIRTUAL TABLE IF NOT EXISTS records_fts_vocab USING fts5vocab(records_fts, 'row');
`;

const available = new WeakMap<Db, boolean>();

/**
 * Whether this connection's SQLite has FTS5 (the fts5 and fts5vocab modules). Asked of the
 * connection itself, not of compile options: a module can be missing from a build that lists
 * ENABLE_FTS5. Where SQLite has no pragma_module_list, a temporary FTS5 table is tried instead.
 * Remembered per connection.
 */
export function fts5Available(db: Db): boolean {
  const known = available.get(db);
  if (known !== undefined) return known;
  let yes: boolean;
  try {
    const n = db
      .prepare("SELECT COUNT(*) AS n FROM pragma_module_list WHERE name IN ('fts5', 'fts5vocab')")
      .get() as { n: number };
    yes = n.n === 2;
  } catch {
    yes = fts5ByTable(db);
  }
  available.set(db, yes);
  return yes;
}

/** The probe's fallback, also used on its own by the tests: create and drop temporary FTS5 tables. */
export function fts5ByTable(db: Db): boolean {
  try {
    db.exec(
      'CREATE VIRTUAL TABLE temp.agentctx_fts5_probe USING fts5(x); CREATE VIRTUAL TABLE temp.agentctx_fts5_probe_v USING fts5vocab(agentctx_fts5_probe, row);',
    );
    return true;
  } catch {
    return false;
  } finally {
    try {
      db.exec(
        'DROP TABLE IF EXISTS temp.agentctx_fts5_probe_v; DROP TABLE IF EXISTS temp.agentctx_fts5_probe;',
      );
    } catch {
      // a probe that never got created
    }
  }
}

const objectsQuery = new WeakMap<Db, Statement>();

/** Which of the index's objects exist in the store (whatever this connection's SQLite has). */
function presentObjects(db: Db): Set<string> {
  let stmt = objectsQuery.get(db);
  if (!stmt) {
    stmt = db
      .prepare(`SELECT name FROM sqlite_master WHERE name IN (${OBJECTS.map(() => '?').join(',')})`)
      .pluck();
    objectsQuery.set(db, stmt);
  }
  return new Set(stmt.all(...OBJECTS) as string[]);
}

const readyQuery = new WeakMap<Db, Statement>();

/**
 * Whether searches on this connection can use the FTS5 index (CONTRACTS.md §ladder, rungs 1 to 3):
 * the five objects exist and FTS5 is there. One statement, prepared once per connection: preparing it
 * connects to the fts5vocab table, which fails where the module is missing (the hook's hot path
 * pays for nothing more).
 */
export function ftsUsable(db: Db): boolean {
  let stmt = readyQuery.get(db);
  if (!stmt) {
    try {
      stmt = db
        .prepare(
          `SELECT COUNT(*) FROM sqlite_master WHERE name IN (${OBJECTS.map(() => '?').join(',')})
           AND NOT EXISTS (SELECT 1 FROM records_fts_vocab WHERE 0)`,
        )
        .pluck();
    } catch {
      return false; // no fts5vocab table, or no module for it
    }
    readyQuery.set(db, stmt);
  }
  try {
    return stmt.get(...OBJECTS) === OBJECTS.length;
  } catch {
    readyQuery.delete(db); // the schema changed under it (the index dropped elsewhere)
    return false;
  }
}

type FtsSync = 'ready' | 'built' | 'paused' | 'unavailable';

/**
 * Bring the index in line with this connection's SQLite (see the file comment). Runs in a
 * write transaction that checks again what it found, so processes opening the store together
 * act once. `built`: the index was (re)created from the records; `paused`: the triggers were
 * dropped because FTS5 is missing; `unavailable`: FTS5 is missing and nothing needed doing.
 */
export function syncFtsIndex(db: Db): FtsSync {
  if (ftsUsable(db)) return 'ready';
  const fts5 = fts5Available(db);
  const needed = (): boolean => {
    const present = presentObjects(db);
    return fts5 ? !OBJECTS.every((o) => present.has(o)) : TRIGGERS.some((t) => present.has(t));
  };
  if (!needed()) return fts5 ? 'ready' : 'unavailable';
  const acted = db
    .transaction((): boolean => {
      if (!needed()) return false;
      if (fts5) {
        db.exec(CREATE_INDEX);
        db.exec("INSERT INTO records_fts(records_fts) VALUES ('rebuild')");
      } else {
        db.exec(TRIGGERS.map((t) => `DROP TRIGGER IF EXISTS ${t};`).join(' '));
      }
      return true;
    })
    .immediate();
  if (fts5) return acted ? 'built' : 'ready';
  return acted ? 'paused' : 'unavailable';
}
