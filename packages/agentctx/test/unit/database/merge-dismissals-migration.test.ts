import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/database/migrations.js';
import { openDb } from '../../../src/database/open.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

describe('the merge_dismissals migration', () => {
  it('carries the dismissals a store already holds over from merge_candidates', () => {
    const path = join(t.path, 'agentctx.db');
    const at = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE merge_dismissals'));
    expect(at).toBeGreaterThan(1);
    // a store at the version just before it, with one dismissed and one open candidate
    const old = new Database(path);
    for (let v = 0; v < at; v++) old.exec(MIGRATIONS[v]!);
    old.pragma(`user_version = ${at}`);
    const ins = old.prepare(
      `INSERT INTO merge_candidates (project_id, type, record_a, record_b, similarity, detected_at, status)
       VALUES ('p', 'bugfix', ?, ?, 0.8, '2026-01-02T00:00:00.000Z', ?)`,
    );
    ins.run('A1', 'B1', 'dismissed');
    ins.run('A2', 'B2', 'open');
    old.close();

    const db = openDb(path);
    try {
      expect(db.prepare('SELECT * FROM merge_dismissals').all()).toEqual([
        { project_id: 'p', id_a: 'A1', id_b: 'B1', dismissed_at: '2026-01-02T00:00:00.000Z' },
      ]);
    } finally {
      db.close();
    }
  });
});
