import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Db, SqliteError } from '../../../src/database/sqlite.js';
import { toToolError } from '../../../src/mcp/result.js';
import { AgentctxError } from '../../../src/shared/errors.js';

/**
 * The MCP boundary classifies a failure by its type and SQLite's result code, never by the
 * words of its message: a message may say "database" or "SQLITE_BUSY" about anything, and a
 * busy store may word its error any way.
 */
describe('toToolError', () => {
  it('classifies by type and code, whatever the message says', () => {
    const words = fc.constantFrom(
      '',
      'database is locked',
      'SQLITE_BUSY',
      'unable to open database',
      'x.node',
      'better-sqlite3',
    );
    fc.assert(
      fc.property(
        words,
        fc.string({ maxLength: 40 }),
        fc.constantFrom(5, 6, 261, 517, 8, 10, 14, 13, 1, 19, 2067),
        (w, s, errcode) => {
          const message = `${s} ${w}`;
          // a plain Error is internal, even when its text looks like a store's
          expect(toToolError(new Error(message)).code).toBe('internal');
          const out = toToolError(new SqliteError(message, errcode));
          const busy = (errcode & 0xff) === 5 || (errcode & 0xff) === 6;
          expect(out.code).toBe(busy ? 'busy' : 'store_unavailable');
          expect(out.degraded).toBe(busy ? 'store-busy' : 'no-store');
        },
      ),
    );
  });

  it('keeps a domain error as it is, and tells a damaged store by its code', () => {
    expect(toToolError(new AgentctxError('usage', 'bad id', { id: 'x' }))).toEqual({
      error: 'bad id',
      code: 'usage',
      id: 'x',
    });
    expect(toToolError(new SqliteError('file is not a database', 26), '/s/agentctx.db').code).toBe(
      'store_damaged',
    );
  });

  it('gets a SqliteError with the result code by name from the driver', () => {
    const db = new Db(':memory:');
    try {
      db.exec('CREATE TABLE t (a UNIQUE); INSERT INTO t VALUES (1)');
      let thrown: unknown;
      try {
        db.prepare('INSERT INTO t VALUES (1)').run();
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(SqliteError);
      expect((thrown as SqliteError).code).toBe('SQLITE_CONSTRAINT_UNIQUE');
      expect(toToolError(thrown).code).toBe('store_unavailable');
    } finally {
      db.close();
    }
  });
});
