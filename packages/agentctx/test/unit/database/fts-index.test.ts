import { join } from 'node:path';
import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '../../../src/core/records/records.js';
import { search } from '../../../src/core/retrieval/search.js';
import { type DatabaseCtor, type Db, openWith } from '../../../src/database/connection.js';
import { fts5Available, fts5ByTable, ftsUsable, syncFtsIndex } from '../../../src/database/fts-index.js';
import { SCHEMA_VERSION } from '../../../src/database/migrations.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { withoutFts5 } from '../../support/no-fts5.js';
import { tempDir } from '../../support/tmp.js';

/**
 * CONTRACTS.md §rung-4 against real connections whose SQLite has no FTS5 (test/support/no-fts5.ts):
 * the probe, a store made without FTS5, a store made with it and written without it, and the
 * index rebuilt from the records once FTS5 is back.
 */

const WITH = Database as unknown as DatabaseCtor;
let WITHOUT: DatabaseCtor;
let dir: ReturnType<typeof tempDir>;
let path: string;
const NOW = new Date('2026-11-30T12:00:00Z');

beforeEach(() => {
  WITHOUT = withoutFts5();
  dir = tempDir('agentctx-fts-index-');
  path = join(dir.path, 'agentctx.db');
});
afterEach(() => dir.cleanup());

const objects = (db: Db) =>
  (
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE name IN
           ('records_fts', 'records_fts_vocab', 'records_fts_ai', 'records_fts_ad', 'records_fts_au') ORDER BY name`,
      )
      .pluck()
      .all() as string[]
  ).join(',');

/** FTS5's own check that the index holds exactly the records' text. Throws when it does not. */
const integrity = (db: Db) =>
  db.exec("INSERT INTO records_fts(records_fts, rank) VALUES ('integrity-check', 1)");

function add(db: Db, title: string, body: string) {
  return createRecord(
    { db, clock: () => NOW, newId: monotonicFactory(), projectId: 'p' },
    { type: 'decision', source: 'cli', confidence: 'explicit', title, body },
  );
}

describe('the FTS5 probe', () => {
  it('reports FTS5 on node:sqlite and its absence on a connection without the module', () => {
    const a = new Database(':memory:');
    const b = new WITHOUT(':memory:');
    try {
      expect(fts5Available(a)).toBe(true);
      expect(fts5Available(b)).toBe(false);
      // the fallback for SQLite builds without pragma_module_list agrees
      expect(fts5ByTable(a)).toBe(true);
      expect(fts5ByTable(b)).toBe(false);
      // and the probe is what matters: a compile-option check would say yes on both
      expect(b.prepare("SELECT sqlite_compileoption_used('ENABLE_FTS5')").pluck().get()).toBe(1);
      expect(() => b.exec('CREATE VIRTUAL TABLE t USING fts5(x)')).toThrow(/no such module: fts5/);
    } finally {
      a.close();
      b.close();
    }
  });
});

describe('a store on a SQLite without FTS5', () => {
  it('opens at the current schema with no index, writes, and searches with LIKE', () => {
    const db = openWith(WITHOUT, path);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(objects(db)).toBe('');
    expect(ftsUsable(db)).toBe(false);
    const r = add(db, 'Sessions in Redis', 'Customer sessions live in Redis with a one-day TTL.');
    add(db, 'Tabs', 'Indent with tabs.');
    const res = search(db, { projectId: 'p', query: 'customer sessions', now: NOW });
    expect(res.degraded).toBe('like-search');
    expect(res.hits.map((h) => h.record.id)).toEqual([r.id]);
    db.close();
    // the same file with FTS5: the index is created and filled from the records
    const fts = openWith(WITH, path);
    expect(objects(fts)).toBe('records_fts,records_fts_ad,records_fts_ai,records_fts_au,records_fts_vocab');
    integrity(fts);
    const again = search(fts, { projectId: 'p', query: 'customer sessions', now: NOW });
    expect(again.degraded).toBeUndefined();
    expect(again.hits.map((h) => h.record.id)).toEqual([r.id]);
    fts.close();
  });

  it('pauses the index of a store made with FTS5, and the next FTS5 connection rebuilds it', () => {
    const first = openWith(WITH, path);
    add(first, 'Queue', 'Jobs run on the durable queue.');
    first.close();
    const db = openWith(WITHOUT, path);
    // the triggers are gone (every write would need FTS5); the tables stay
    expect(objects(db)).toBe('records_fts,records_fts_vocab');
    const during = add(db, 'Queue retries', 'The durable queue retries a job five times.');
    expect(search(db, { projectId: 'p', query: 'retries', now: NOW }).hits.map((h) => h.record.id)).toEqual([
      during.id,
    ]);
    db.close();
    const back = openWith(WITH, path);
    integrity(back);
    expect(
      search(back, { projectId: 'p', query: 'five times', now: NOW }).hits.map((h) => h.record.id),
    ).toEqual([during.id]);
    back.close();
  });

  it('an FTS5 connection already open falls back to LIKE once the index is paused', () => {
    const open = openWith(WITH, path);
    add(open, 'Queue', 'Jobs run on the durable queue.');
    const other = openWith(WITHOUT, path); // pauses the index
    const r = add(other, 'Cache', 'The cache is warmed at start-up.');
    other.close();
    const res = search(open, { projectId: 'p', query: 'cache warmed', now: NOW });
    expect(res.degraded).toBe('like-search');
    expect(res.hits.map((h) => h.record.id)).toEqual([r.id]);
    open.close();
  });

  it('any sequence of writes under either SQLite leaves an index equal to the records', () => {
    const word = fc.constantFrom('alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot');
    const text = fc.array(word, { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));
    const op = fc.oneof(
      fc.record({ kind: fc.constant('reopen' as const), fts: fc.boolean() }),
      fc.record({ kind: fc.constant('add' as const), title: text, body: text }),
      fc.record({ kind: fc.constant('edit' as const), pick: fc.nat(), body: text }),
      fc.record({ kind: fc.constant('delete' as const), pick: fc.nat() }),
    );
    let run = 0;
    fc.assert(
      fc.property(fc.array(op, { maxLength: 25 }), (ops) => {
        const file = join(dir.path, `prop-${run++}.db`);
        let fts = true;
        let db = openWith(WITH, file);
        try {
          for (const o of ops) {
            if (o.kind === 'reopen') {
              db.close();
              fts = o.fts;
              db = openWith(fts ? WITH : WITHOUT, file);
            } else if (o.kind === 'add') {
              add(db, o.title, o.body);
            } else {
              const ids = db.prepare('SELECT id FROM records ORDER BY rowid').pluck().all() as string[];
              if (ids.length === 0) continue;
              const id = ids[o.pick % ids.length];
              if (o.kind === 'edit') db.prepare('UPDATE records SET body = ? WHERE id = ?').run(o.body, id);
              // deleting a current record counts as a retirement: inside a transaction
              // (database/retirement.ts)
              else db.transaction(() => db.prepare('DELETE FROM records WHERE id = ?').run(id))();
            }
            expect(ftsUsable(db)).toBe(fts);
            if (fts) integrity(db);
          }
          db.close();
          db = openWith(WITH, file);
          integrity(db);
          // every word finds exactly the current records that hold it
          for (const w of ['alpha', 'delta', 'foxtrot']) {
            const want = (
              db
                .prepare("SELECT id FROM records WHERE ' ' || title || ' ' || body || ' ' LIKE ? ORDER BY id")
                .pluck()
                .all(`% ${w} %`) as string[]
            ).join();
            const got = (
              db
                .prepare(
                  'SELECT r.id FROM records_fts f JOIN records r ON r.rowid = f.rowid WHERE records_fts MATCH ? ORDER BY r.id',
                )
                .pluck()
                .all(w) as string[]
            ).join();
            expect(got).toBe(want);
          }
        } finally {
          db.close();
        }
      }),
      { seed: 20261203, numRuns: 25 },
    );
  });

  it('a second connection finds the index already built', () => {
    const a = openWith(WITHOUT, path);
    add(a, 'One', 'First record.');
    const b = new Database(path) as unknown as Db;
    const c = new Database(path) as unknown as Db;
    expect([syncFtsIndex(b), syncFtsIndex(c)].sort()).toEqual(['built', 'ready']);
    integrity(c);
    for (const x of [a, b, c]) x.close();
  });
});
