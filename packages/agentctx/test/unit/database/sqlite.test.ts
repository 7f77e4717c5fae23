import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { Db, SqliteError } from '../../../src/database/sqlite.js';
import { tempDir } from '../../support/tmp.js';

/** The driver's own promises (src/database/sqlite.ts), each held against SQLite itself. */

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});
function memory(): Db {
  const db = new Db(':memory:');
  cleanups.push(() => db.close());
  db.exec('CREATE TABLE t (k INTEGER PRIMARY KEY, v TEXT)');
  return db;
}

type Step = { kind: 'insert'; k: number } | { kind: 'nest'; steps: Step[]; fail: boolean };
const step: fc.Arbitrary<Step> = fc.letrec<{ step: Step }>((tie) => ({
  step: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('insert' as const), k: fc.integer({ min: 0, max: 30 }) }),
    fc.record({
      kind: fc.constant('nest' as const),
      steps: fc.array(tie('step'), { maxLength: 4 }),
      fail: fc.boolean(),
    }),
  ),
})).step;

describe('Db.transaction', () => {
  it('commits what returned and undoes exactly what threw, at any nesting (savepoints)', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 6 }), (steps) => {
        const db = memory();
        const ins = db.prepare('INSERT OR REPLACE INTO t (k, v) VALUES (?, ?)');
        // the model: a set of keys; a failing block's keys never land
        const run = (s: Step, into: Set<number>): void => {
          if (s.kind === 'insert') {
            ins.run(s.k, 'x');
            into.add(s.k);
            return;
          }
          const mine = new Set(into);
          try {
            db.transaction(() => {
              for (const c of s.steps) run(c, mine);
              if (s.fail) throw new Error('undo');
            }).immediate();
            for (const k of mine) into.add(k);
          } catch (err) {
            if ((err as Error).message !== 'undo') throw err;
          }
        };
        const want = new Set<number>();
        db.transaction(() => {
          for (const s of steps) run(s, want);
        })();
        const got = (db.prepare('SELECT k FROM t ORDER BY k').pluck().all() as number[]).sort(
          (a, b) => a - b,
        );
        expect(got).toEqual([...want].sort((a, b) => a - b));
        expect(db.inTransaction).toBe(false);
        db.close();
      }),
      { numRuns: 150 },
    );
  });
});

describe('statements', () => {
  it('spread array parameters, ignore unknown named ones, pluck and raw', () => {
    const db = memory();
    db.prepare('INSERT INTO t (k, v) VALUES (@k, @v)').run({ k: 1, v: 'a', extra: 'ignored' });
    db.prepare('INSERT INTO t (k, v) VALUES (?, ?), (?, ?)').run([2, 'b'], 3, 'c');
    expect(db.prepare('SELECT v FROM t WHERE k IN (?, ?, ?) ORDER BY k').pluck().all([1, 2, 3])).toEqual([
      'a',
      'b',
      'c',
    ]);
    expect(db.prepare('SELECT k, v FROM t WHERE k = ?').raw().get(2)).toEqual([2, 'b']);
    expect([...db.prepare('SELECT v FROM t ORDER BY k').pluck().iterate()]).toEqual(['a', 'b', 'c']);
    expect(db.prepare('SELECT v FROM t WHERE k = 9').pluck().get()).toBeUndefined();
    expect(db.prepare('SELECT 1').reader).toBe(true);
    expect(db.prepare('DELETE FROM t WHERE k = 0').reader).toBe(false);
    expect(db.pragma('user_version', { simple: true })).toBe(0);
    expect(db.pragma('recursive_triggers', { simple: true })).toBe(0);
    expect(db.pragma('cache_size', { simple: true })).toBe(-16000);
  });

  it('throws SqliteError with the result code by name', () => {
    const db = memory();
    db.prepare('INSERT INTO t (k, v) VALUES (1, ?)').run('a');
    const codeOf = (f: () => unknown) => {
      try {
        f();
      } catch (err) {
        expect(err).toBeInstanceOf(SqliteError);
        return (err as SqliteError).code;
      }
      return null;
    };
    expect(codeOf(() => db.prepare('INSERT INTO t (k, v) VALUES (1, ?)').run('b'))).toBe(
      'SQLITE_CONSTRAINT_PRIMARYKEY',
    );
    expect(codeOf(() => db.exec('SELECT * FROM missing'))).toBe('SQLITE_ERROR');
    // SQL cannot load an extension: only the driver's loadExtension, for one call
    expect(codeOf(() => db.prepare("SELECT load_extension('/nonexistent')").get())).toBe('SQLITE_ERROR');
  });

  it("waits for another connection's write lock (5 s by default), then reports SQLITE_BUSY", () => {
    const t = tempDir();
    cleanups.push(t.cleanup);
    const path = join(t.path, 's.db');
    const a = new Db(path);
    const b = new Db(path, { timeout: 50 });
    cleanups.push(() => {
      a.close();
      b.close();
    });
    a.exec('PRAGMA journal_mode = WAL; CREATE TABLE t (k)');
    a.exec('BEGIN IMMEDIATE');
    const t0 = Date.now();
    expect(() => b.exec('BEGIN IMMEDIATE')).toThrow(expect.objectContaining({ code: 'SQLITE_BUSY' }));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
    a.exec('ROLLBACK');
    expect(() => new Db(join(t.path, 'none.db'), { fileMustExist: true })).toThrow(
      expect.objectContaining({ code: 'SQLITE_CANTOPEN' }),
    );
  });
});
