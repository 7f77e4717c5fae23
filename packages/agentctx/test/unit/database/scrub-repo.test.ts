import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDb } from '../../../src/database/open.js';
import {
  dropRecordVectors,
  dropSqliteVecRows,
  hasSqliteVecTable,
  NOT_FREE_TEXT,
  SCRUBBED_COLUMNS,
  vacuumStore,
} from '../../../src/database/scrub-repo.js';
import { loadSqliteVec } from '../../../src/database/vectors/open.js';
import { createSqliteVecStore } from '../../../src/database/vectors/sqlite-vec-store.js';
import { insertLegacy, legacyId } from '../../support/legacy-store.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('agentctx-scrub-repo-');
});
afterEach(() => t.cleanup());

describe('the scrub covers the schema', () => {
  it('every TEXT column of every table is either scrubbed or declared free of free text', () => {
    const db = openDb(join(t.path, 'a.db'));
    try {
      const tables = db
        .prepare(
          "SELECT name FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'records_fts_%'",
        )
        .pluck()
        .all() as string[];
      const unclassified: string[] = [];
      for (const table of tables) {
        const cols = db.prepare(`SELECT name, type FROM pragma_table_info(?)`).all(table) as {
          name: string;
          type: string;
        }[];
        for (const c of cols) {
          if (!/TEXT|CHAR|CLOB|^$/i.test(c.type)) continue;
          const known = SCRUBBED_COLUMNS[table]?.includes(c.name) || NOT_FREE_TEXT[table]?.includes(c.name);
          if (!known) unclassified.push(`${table}.${c.name}`);
        }
      }
      // a new table or column holding text: add it to SCRUBBED_COLUMNS (database/scrub-repo.ts)
      // when a person or a model writes it, else to NOT_FREE_TEXT
      expect(unclassified).toEqual([]);
      expect(tables).toContain('records');
    } finally {
      db.close();
    }
  });

  it('VACUUM keeps the records rowids, so the full-text index stays consistent', () => {
    const db = openDb(join(t.path, 'b.db'));
    try {
      const rows = Array.from({ length: 60 }, (_, i) => ({
        id: `${String.fromCharCode(122 - (i % 26))}${legacyId()}`,
        title: `zqrow ${i}`,
        body: `word${i} common`,
      }));
      insertLegacy(db, 'p1', rows);
      // gaps in the rowids, as deletions leave them (retired inside a transaction, as the store asks)
      db.transaction(() => db.prepare('DELETE FROM records WHERE rowid % 3 = 0').run())();
      const before = db.prepare('SELECT rowid, id FROM records ORDER BY id').all();
      expect(vacuumStore(db)).toEqual({ fts_rebuilt: false });
      expect(db.prepare('SELECT rowid, id FROM records ORDER BY id').all()).toEqual(before);
      db.prepare("INSERT INTO records_fts(records_fts, rank) VALUES ('integrity-check', 1)").run();
      const hit = db
        .prepare(
          "SELECT r.title FROM records_fts f JOIN records r ON r.rowid = f.rowid WHERE records_fts MATCH 'word7'",
        )
        .get() as { title: string };
      expect(hit.title).toBe('zqrow 7');
    } finally {
      db.close();
    }
  });
});

describe('a rewritten record loses its stored vectors', () => {
  it('in the JavaScript store and in sqlite-vec', async () => {
    const db = openDb(join(t.path, 'c.db'));
    try {
      const id = legacyId();
      insertLegacy(db, 'p1', [{ id, title: 'x', body: 'y' }]);
      expect(hasSqliteVecTable(db)).toBe(false);
      expect(dropRecordVectors(db, id)).toBe(1);
      expect(dropRecordVectors(db, id)).toBe(0);
      const reason = await loadSqliteVec(db);
      if (reason !== null) {
        console.log(`sqlite-vec part skipped: ${reason}`);
        return;
      }
      const store = createSqliteVecStore(db, 4);
      store.upsert(id, new Float32Array([1, 0, 0, 0]));
      expect(hasSqliteVecTable(db)).toBe(true);
      expect(dropSqliteVecRows(db, [id, 'missing'])).toBe(1);
      expect(store.get(id)).toBeUndefined();
    } finally {
      db.close();
    }
  });
});
