import { existsSync } from 'node:fs';
import * as nodeSqlite from 'node:sqlite';
import { sqliteCodeName } from './sqlite-codes.js';

/**
 * The one SQLite driver module: every agentctx connection (CLI, hooks, MCP, the dashboard, the
 * benchmarks, the tests) is a `Db` made here, over Node's built-in `node:sqlite` (no native
 * addon to install or rebuild per Node version). The API is ours and small: what the code uses,
 * with the semantics it relies on, and no `node:sqlite` type leaves this file.
 *
 * What it adds over `DatabaseSync`, and why:
 * - `transaction(fn)` with `.immediate` / `.exclusive`, nesting as savepoints: every write
 *   goes through it (database/retirement.ts wraps it to count retirements);
 * - `pragma(text, {simple})`, `pluck()` and `raw()` statements;
 * - arrays among the parameters are spread (`.all(...ids)` and `.all(ids)` bind the same);
 * - errors carry SQLite's code by name (`SQLITE_BUSY`, `SQLITE_CONSTRAINT_UNIQUE`): callers
 *   classify them by `code`, never by message (`SqliteError`);
 * - a busy timeout of 5 s unless told otherwise (node:sqlite's default is none) and a 16 MB
 *   page cache (its default is 2 MB: a cold prompt's search touches thousands of pages);
 * - recursive triggers off, as in every SQLite build agentctx has run on (Node compiles them on).
 * - `loadExtension` switches extension loading on only for that call: a connection is opened
 *   with loading allowed (node:sqlite decides that at open) and switched off at once, so SQL's
 *   `load_extension()` is never available.
 *
 * `node:sqlite` is read from the module object at each open, not destructured at import: a
 * test preload can substitute `DatabaseSync` (test/support/no-fts5).
 */

export type SqlValue = null | number | bigint | string | Uint8Array;

/** Integers come back as numbers: no connection reads them as BigInt. */
export interface RunResult {
  changes: number;
  lastInsertRowid: number;
}

export interface Statement {
  run(...params: unknown[]): RunResult;
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  iterate(...params: unknown[]): IterableIterator<unknown>;
  /** Rows as their first column's value (`get` → value, `all` → values). */
  pluck(on?: boolean): Statement;
  /** Rows as arrays of column values. */
  raw(on?: boolean): Statement;
  /** Whether the statement returns rows. */
  readonly reader: boolean;
  readonly source: string;
}

export interface FunctionOptions {
  deterministic?: boolean;
  varargs?: boolean;
  directOnly?: boolean;
}

type Fn = (...args: never[]) => unknown;
export type Transaction<F extends Fn> = ((...args: Parameters<F>) => ReturnType<F>) & {
  deferred: (...args: Parameters<F>) => ReturnType<F>;
  immediate: (...args: Parameters<F>) => ReturnType<F>;
  exclusive: (...args: Parameters<F>) => ReturnType<F>;
};

export interface DbOptions {
  readonly?: boolean;
  /** Milliseconds to wait for another connection's lock (default 5,000). */
  timeout?: number;
  /** Fail instead of creating a missing file. */
  fileMustExist?: boolean;
}

/** An SQLite error with its result code by name (`code`) and number (`errcode`). */
export class SqliteError extends Error {
  readonly code: string;
  readonly errcode: number;
  constructor(message: string, errcode: number) {
    super(message);
    this.name = 'SqliteError';
    this.errcode = errcode;
    this.code = sqliteCodeName(errcode);
  }
}

/** node:sqlite's error (code ERR_SQLITE_ERROR, errcode) as a SqliteError; anything else as is. */
function translate(err: unknown): unknown {
  const e = err as { code?: unknown; errcode?: unknown; message?: unknown } | null;
  if (e && e.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number') {
    const out = new SqliteError(String(e.message), e.errcode);
    if (err instanceof Error && err.stack) out.stack = err.stack.replace(/^Error/, 'SqliteError');
    return out;
  }
  return err;
}

/** better-sqlite3's convention, kept: an array parameter stands for its elements. */
function spread(params: unknown[]): unknown[] {
  for (const p of params) if (Array.isArray(p)) return params.flat();
  return params;
}

type Native = InstanceType<typeof nodeSqlite.DatabaseSync>;
type NativeStatement = ReturnType<Native['prepare']>;

enum Mode {
  Rows = 0,
  Pluck = 1,
  Raw = 2,
}

class SqliteStatement implements Statement {
  #mode: Mode = Mode.Rows;
  #reader: boolean | undefined;
  constructor(
    readonly source: string,
    private readonly native: NativeStatement,
  ) {}

  get reader(): boolean {
    this.#reader ??= this.native.columns().length > 0;
    return this.#reader;
  }

  pluck(on = true): Statement {
    return this.#setMode(on ? Mode.Pluck : Mode.Rows);
  }

  raw(on = true): Statement {
    return this.#setMode(on ? Mode.Raw : Mode.Rows);
  }

  #setMode(mode: Mode): Statement {
    if (mode !== this.#mode) {
      this.native.setReturnArrays(mode !== Mode.Rows);
      this.#mode = mode;
    }
    return this;
  }

  run(...params: unknown[]): RunResult {
    try {
      return this.native.run(...(spread(params) as SqlValue[])) as RunResult;
    } catch (err) {
      throw translate(err);
    }
  }

  get(...params: unknown[]): unknown {
    let row: unknown;
    try {
      row = this.native.get(...(spread(params) as SqlValue[]));
    } catch (err) {
      throw translate(err);
    }
    return this.#mode === Mode.Pluck && row !== undefined ? (row as unknown[])[0] : row;
  }

  all(...params: unknown[]): unknown[] {
    let rows: unknown[];
    try {
      rows = this.native.all(...(spread(params) as SqlValue[]));
    } catch (err) {
      throw translate(err);
    }
    if (this.#mode !== Mode.Pluck) return rows;
    for (let i = 0; i < rows.length; i++) rows[i] = (rows[i] as unknown[])[0];
    return rows;
  }

  *iterate(...params: unknown[]): IterableIterator<unknown> {
    const pluck = this.#mode === Mode.Pluck;
    let it: Iterator<unknown>;
    try {
      it = this.native.iterate(...(spread(params) as SqlValue[]));
    } catch (err) {
      throw translate(err);
    }
    for (;;) {
      let next: IteratorResult<unknown>;
      try {
        next = it.next();
      } catch (err) {
        throw translate(err);
      }
      if (next.done) return;
      yield pluck ? (next.value as unknown[])[0] : next.value;
    }
  }
}

/** Savepoint name for a transaction opened inside another (never a user's name). */
const SAVEPOINT = '"agentctx\tnested"';

/** An open SQLite connection. */
export class Db {
  readonly name: string;
  readonly memory: boolean;
  readonly readonly: boolean;
  #native: Native;
  #fixed = new Map<string, NativeStatement>();

  constructor(path: string, opts: DbOptions = {}) {
    this.name = path;
    this.memory = path === ':memory:' || path === '';
    this.readonly = opts.readonly ?? false;
    if (opts.fileMustExist && !this.memory && !existsSync(path))
      throw new SqliteError('unable to open database file', 14); // SQLITE_CANTOPEN
    try {
      this.#native = new nodeSqlite.DatabaseSync(path, {
        readOnly: this.readonly,
        timeout: Math.trunc(opts.timeout ?? 5000),
        allowExtension: true,
      });
    } catch (err) {
      throw translate(err);
    }
    try {
      this.#native.enableLoadExtension(false);
      // the first statement: a file that is not a database fails here, and is closed again
      this.#native.exec('PRAGMA recursive_triggers = OFF; PRAGMA cache_size = -16000;');
    } catch (err) {
      this.#native.close();
      throw translate(err);
    }
  }

  get open(): boolean {
    return this.#native.isOpen;
  }

  get inTransaction(): boolean {
    return this.#native.isTransaction;
  }

  prepare(sql: string): Statement {
    try {
      const native = this.#native.prepare(sql);
      // better-sqlite3's convention, kept: an object may carry keys the statement does not name
      native.setAllowUnknownNamedParameters(true);
      return new SqliteStatement(sql, native);
    } catch (err) {
      throw translate(err);
    }
  }

  exec(sql: string): this {
    try {
      this.#native.exec(sql);
    } catch (err) {
      throw translate(err);
    }
    return this;
  }

  /** `PRAGMA <text>`: every row, or with `simple` the first column of the first row. */
  pragma(text: string, opts: { simple?: boolean } = {}): unknown {
    const stmt = this.prepare(`PRAGMA ${text}`);
    if (!opts.simple) return stmt.all();
    const row = stmt.get() as Record<string, unknown> | undefined;
    return row === undefined ? undefined : Object.values(row)[0];
  }

  function(name: string, opts: FunctionOptions, fn: (...args: never[]) => unknown): this;
  function(name: string, fn: (...args: never[]) => unknown): this;
  function(
    name: string,
    a: FunctionOptions | ((...args: never[]) => unknown),
    b?: (...args: never[]) => unknown,
  ): this {
    const opts = typeof a === 'function' ? {} : a;
    const fn = (typeof a === 'function' ? a : b) as (...args: SqlValue[]) => SqlValue;
    try {
      this.#native.function(
        name,
        {
          deterministic: opts.deterministic ?? false,
          varargs: opts.varargs ?? false,
          directOnly: opts.directOnly ?? false,
        },
        fn,
      );
    } catch (err) {
      throw translate(err);
    }
    return this;
  }

  /** Load a SQLite extension (sqlite-vec, a test's); loading is allowed only during the call. */
  loadExtension(file: string, entryPoint?: string): void {
    try {
      this.#native.enableLoadExtension(true);
      try {
        // node:sqlite's entry point argument is newer than its loadExtension
        (this.#native.loadExtension as (f: string, e?: string) => void)(file, entryPoint);
      } finally {
        this.#native.enableLoadExtension(false);
      }
    } catch (err) {
      throw translate(err);
    }
  }

  /** `fn` inside BEGIN … COMMIT (or a savepoint when a transaction is open); rolled back if it throws. */
  transaction<F extends Fn>(fn: F): Transaction<F> {
    const make = (begin: string) =>
      ((...args: Parameters<F>) => this.#inTransaction(begin, fn, args)) as (
        ...args: Parameters<F>
      ) => ReturnType<F>;
    const tx = make('BEGIN') as Transaction<F>;
    tx.deferred = tx;
    tx.immediate = make('BEGIN IMMEDIATE');
    tx.exclusive = make('BEGIN EXCLUSIVE');
    return tx;
  }

  #inTransaction<F extends Fn>(begin: string, fn: F, args: Parameters<F>): ReturnType<F> {
    const nested = this.#native.isTransaction;
    this.#run(nested ? `SAVEPOINT ${SAVEPOINT}` : begin);
    try {
      const result = fn(...args) as ReturnType<F>;
      this.#run(nested ? `RELEASE ${SAVEPOINT}` : 'COMMIT');
      return result;
    } catch (err) {
      if (this.#native.isTransaction) {
        if (nested) {
          this.#run(`ROLLBACK TO ${SAVEPOINT}`);
          this.#run(`RELEASE ${SAVEPOINT}`);
        } else this.#run('ROLLBACK');
      }
      throw err;
    }
  }

  /** A fixed statement (BEGIN, COMMIT…), prepared once per connection. */
  #run(sql: string): void {
    let stmt = this.#fixed.get(sql);
    try {
      if (!stmt) {
        stmt = this.#native.prepare(sql);
        this.#fixed.set(sql, stmt);
      }
      stmt.run();
    } catch (err) {
      throw translate(err);
    }
  }

  close(): void {
    if (!this.#native.isOpen) return;
    this.#fixed.clear();
    try {
      this.#native.close();
    } catch (err) {
      throw translate(err);
    }
  }
}
