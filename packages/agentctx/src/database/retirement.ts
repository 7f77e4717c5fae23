import { appendFileSync, statSync } from 'node:fs';
import type { Db } from './connection.js';

/**
 * The retirement counters: how a reader that does not open the store (the SessionStart hook)
 * knows whether anything was retired since a digest was composed (CONTRACTS.md §inv-3).
 *
 * Two append-only files beside the store, `<store>.retire-begun` and `<store>.retire-done`; each
 * counter is the file's size. A transaction that retires records (supersedes, closes or deletes
 * a current record) appends one byte to `begun` before it commits and one byte to `done` after it
 * committed or rolled back. Appends are O_APPEND writes of one byte, atomic on local files.
 *
 * There is one choke point, so no write path can forget it: a trigger on `records` (migration 7)
 * calls `agentctx_retiring()` whenever a current record of a type the digest can show is
 * retired or deleted; this module registers that function on every connection
 * (database/connection.ts) and wraps the connection's `transaction()`. The function appends to
 * `begun` (once per transaction) and throws when no transaction of ours is open, so a retirement in
 * an autocommit statement or a hand-written BEGIN fails instead of going uncounted; the wrapper
 * appends to `done` when the outermost transaction has ended.
 */

const RETIRING_FUNCTION = 'agentctx_retiring';

export interface RetirementCounters {
  begun: number;
  done: number;
}

export function counterFiles(dbPath: string): { begun: string; done: string } {
  return { begun: `${dbPath}.retire-begun`, done: `${dbPath}.retire-done` };
}

function sizeOf(path: string): { size: number; mtimeMs: number } {
  const st = statSync(path, { throwIfNoEntry: false });
  return st ? { size: st.size, mtimeMs: st.mtimeMs } : { size: 0, mtimeMs: 0 };
}

/**
 * Both counters, `done` read first: when they are equal, no retirement was in flight at the
 * moment `done` was read (done ≤ begun always, and both only grow).
 */
export function readRetirementCounters(dbPath: string): RetirementCounters {
  const done = sizeOf(counterFiles(dbPath).done).size;
  const begun = sizeOf(counterFiles(dbPath).begun).size;
  return { begun, done };
}

function appendBytes(path: string, n: number): void {
  if (n > 0) appendFileSync(path, Buffer.alloc(n, 0x2e), { mode: 0o600 });
}

interface Scope {
  depth: number;
  begun: boolean;
}

/** The retirement scope of one connection: `enter`/`leave` around each transaction call. */
interface RetirementScope {
  enter(): boolean;
  leave(entered: boolean): void;
}

const scopes = new WeakMap<Db, RetirementScope>();

/** The retirement scope installed on a connection (tests drive it step by step). */
export function retirementScopeOf(db: Db): RetirementScope | undefined {
  return scopes.get(db);
}

function isFileBacked(db: Db): boolean {
  return !db.memory && db.name !== '' && db.name !== ':memory:';
}

/** Register `agentctx_retiring()` on `db` and make every `db.transaction(...)` a retirement scope. */
export function installRetirementScope(db: Db): void {
  const files = isFileBacked(db) ? counterFiles(db.name) : null;
  const state: Scope = { depth: 0, begun: false };
  db.function(RETIRING_FUNCTION, { deterministic: false }, () => {
    if (state.depth === 0) {
      throw new Error(
        'a record was retired outside a transaction: retire records inside db.transaction(...) (database/retirement.ts)',
      );
    }
    if (!state.begun) {
      if (files) appendBytes(files.begun, 1); // a failure here fails the statement: nothing is retired
      state.begun = true;
    }
    return null;
  });
  const scope: RetirementScope = {
    // A transaction opened inside someone else's BEGIN is not ours to count: the function throws
    // there.
    enter() {
      if (state.depth === 0 && db.inTransaction) return false;
      state.depth++;
      return true;
    },
    leave(entered) {
      if (!entered) return;
      state.depth--;
      if (state.depth > 0 || !state.begun) return;
      state.begun = false;
      try {
        if (files) appendBytes(files.done, 1);
      } catch {
        // the counters stay unequal: readers take the slow path until consolidation equalises them
      }
    },
  };
  const original = db.transaction.bind(db);
  type Fn = (...args: unknown[]) => unknown;
  const wrap = (run: Fn): Fn =>
    function (this: unknown, ...args: unknown[]) {
      const entered = scope.enter();
      try {
        return run.apply(this, args);
      } finally {
        scope.leave(entered);
      }
    };
  db.transaction = ((fn: Fn) => {
    const tx = original(fn) as unknown as Fn & Record<'deferred' | 'immediate' | 'exclusive', Fn>;
    const out = wrap(tx) as Fn & Record<string, Fn>;
    for (const mode of ['deferred', 'immediate', 'exclusive'] as const) out[mode] = wrap(tx[mode]);
    return out;
  }) as unknown as Db['transaction'];
  scopes.set(db, scope);
}

/** How long unequal counters must stay untouched before consolidation takes the writer for dead. */
export const STALE_RETIREMENT_MS = 120_000;

/**
 * Repair counters a killed writer left unequal. `done > begun` (a writer resumed after an
 * earlier repair) is raised at once: raising `begun` only makes digests look stale. `begun >
 * done` is equalised only when neither file changed for `staleMs`: no write takes that long,
 * so the writer is dead and SQLite rolled its transaction back. Returns what it appended.
 */
export function equaliseStaleCounters(
  dbPath: string,
  nowMs: number,
  staleMs = STALE_RETIREMENT_MS,
): { begun: number; done: number } {
  const f = counterFiles(dbPath);
  const done = sizeOf(f.done);
  const begun = sizeOf(f.begun);
  if (done.size > begun.size) {
    appendBytes(f.begun, done.size - begun.size);
    return { begun: done.size - begun.size, done: 0 };
  }
  if (begun.size > done.size && nowMs - Math.max(begun.mtimeMs, done.mtimeMs) >= staleMs) {
    appendBytes(f.done, begun.size - done.size);
    return { begun: 0, done: begun.size - done.size };
  }
  return { begun: 0, done: 0 };
}
