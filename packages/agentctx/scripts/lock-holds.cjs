// A debugging preload that times how long a process holds the store's write lock:
//   AGENTCTX_LOCK_LOG=/tmp/holds.jsonl node -r ./scripts/lock-holds.cjs bin/agentctx.cjs consolidate
// It wraps `run` of node:sqlite's statements, which every copy of agentctx's driver in the
// process uses (each bundle carries its own copy of src/database/sqlite.ts), so
// it sees each BEGIN … COMMIT/ROLLBACK and each write statement run outside a transaction (an
// implicit transaction of its own), and appends one JSON line per hold:
//   kind (tx:immediate, tx:deferred…, autocommit), ms (from the call of BEGIN to the end of
//   COMMIT), wait (BEGIN's own time: waiting for the lock), body (from the lock taken to COMMIT),
//   commit (COMMIT's time), ckpt (frames an automatic WAL checkpoint copied during COMMIT: it
//   runs after the lock is let go, so such a COMMIT holds the lock for part of its time only;
//   read from the -shm file's nBackfill); t, got, end: monotonic-clock ms
//   (sub-ms, comparable across processes) of the call, of the lock taken (for a deferred
//   transaction, which takes it at its first write, the BEGIN) and of the end; cpu and rq: the
//   holder thread's CPU time (coarse: the kernel updates it at ticks) and run-queue delay
//   (runnable, not scheduled; exact) while it held the lock;
//   proc (`consolidate`, `hook stop`, `mcp`…), pid, and at: the nearest named functions on the
//   stack (which consolidation step it belongs to).
// Lines are buffered and written when the process exits (or is ended by a signal), so that logging
// does not widen the gaps between two holds. Measurement only; never loaded by agentctx.
const { appendFileSync, openSync, readFileSync, readSync } = require('node:fs');

const log = process.env.AGENTCTX_LOCK_LOG;
const min = Number(process.env.AGENTCTX_LOCK_MIN_MS ?? '0');
const { DatabaseSync, StatementSync } = require('node:sqlite');
/** The connection of each statement (node:sqlite's statements do not name theirs). */
const owner = new WeakMap();
const prepare = DatabaseSync.prototype.prepare;
if (log)
  DatabaseSync.prototype.prepare = function (...args) {
    const stmt = prepare.apply(this, args);
    owner.set(stmt, this);
    return stmt;
  };
const proc = process.argv
  .slice(2, 4)
  .filter((a) => !a.startsWith('-'))
  .join(' ');
// CLOCK_MONOTONIC, which every process on the machine reads alike (performance.timeOrigin differs
// between processes by up to a couple of milliseconds)
const wall = () => Number(process.hrtime.bigint()) / 1e6;
/** [cpu ms, run-queue ms] of this thread so far. */
const sched = () => {
  try {
    const [cpu, rq] = readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ');
    return [Number(cpu) / 1e6, Number(rq) / 1e6];
  } catch {
    return [Number.NaN, Number.NaN];
  }
};
const r2 = (x) => (x === undefined || Number.isNaN(x) ? undefined : Math.round(x * 100) / 100);
const r3 = (x) => (x === undefined ? undefined : Math.round(x * 1000) / 1000);
const where = () =>
  (new Error().stack ?? '')
    .split('\n')
    .slice(3)
    .map((l) => /at (?:Object\.)?([\w$.]+) \(/.exec(l)?.[1])
    .filter((n) => n && !/^(Function|Database|Statement|wrapped|timed|addon|sqliteTransaction)/.test(n))
    .slice(0, 6)
    .join(' < ');

/** The WAL index's nBackfill (frames a checkpoint has copied back; offset 96 of the -shm file). */
const shm = new Map();
const backfilled = (db) => {
  try {
    const name = db?.location?.();
    if (!name) return undefined;
    if (!shm.has(name)) shm.set(name, openSync(`${name}-shm`, 'r'));
    const b = Buffer.alloc(4);
    readSync(shm.get(name), b, 0, 4, 96);
    return b.readUInt32LE(0);
  } catch {
    return undefined;
  }
};

let lines = [];
const flush = () => {
  if (lines.length > 0) appendFileSync(log, lines.join(''));
  lines = [];
};
if (log) {
  process.on('exit', flush);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP'])
    process.once(sig, () => {
      flush();
      process.kill(process.pid, sig);
    });
}
const note = (hold) => {
  if (hold.end - hold.t < min) return;
  lines.push(`${JSON.stringify({ ...hold, proc, pid: process.pid, at: where() })}\n`);
  if (lines.length >= 5000) flush();
};

const BEGIN = /^BEGIN\s*(DEFERRED|IMMEDIATE|EXCLUSIVE)?/i;
const END = /^(COMMIT|END|ROLLBACK)\s*(TRANSACTION)?\s*$/i;
const QUIET = /^(SELECT|PRAGMA|SAVEPOINT|RELEASE|ROLLBACK TO|WITH\s)/i;
/** The open transaction of each connection (keyed by its database object). */
const open = new WeakMap();
const keyOf = (stmt) => owner.get(stmt) ?? DatabaseSync;
const isReader = (stmt) => stmt.columns().length > 0;
const run = StatementSync.prototype.run;
if (log)
  StatementSync.prototype.run = function (...args) {
    const sql = String(this.sourceSQL ?? '').trim();
    const t = wall();
    const t0 = performance.now();
    const begin = BEGIN.exec(sql);
    if (begin) {
      const out = run.apply(this, args);
      const got = wall();
      open.set(keyOf(this), {
        t,
        got,
        wait: performance.now() - t0,
        mode: (begin[1] ?? 'default').toLowerCase(),
        s0: sched(),
      });
      return out;
    }
    const tx = open.get(keyOf(this));
    if (END.test(sql) && tx) {
      const n0 = backfilled(owner.get(this));
      const c0 = wall();
      try {
        return run.apply(this, args);
      } finally {
        open.delete(keyOf(this));
        const end = wall();
        const s1 = sched();
        const n1 = backfilled(owner.get(this));
        const changed = tx.mode === 'immediate' || tx.mode === 'exclusive' || tx.wrote;
        if (changed)
          note({
            kind: `tx:${tx.mode}${/^ROLLBACK/i.test(sql) ? ':rollback' : ''}`,
            ms: r2(end - tx.t),
            wait: r2(tx.wait),
            body: r2(c0 - tx.got),
            commit: r2(end - c0),
            t: r3(tx.t),
            got: r3(tx.got),
            end: r3(end),
            cpu: r2(s1[0] - tx.s0[0]),
            rq: r2(s1[1] - tx.s0[1]),
            // an automatic checkpoint ran in COMMIT, after the lock was let go
            ckpt: n0 !== undefined && n1 !== undefined && n1 > n0 ? n1 - n0 : undefined,
          });
      }
    }
    if (tx) {
      if (!isReader(this)) tx.wrote = true;
      return run.apply(this, args);
    }
    if (isReader(this) || QUIET.test(sql)) return run.apply(this, args);
    const s0 = sched();
    try {
      return run.apply(this, args);
    } finally {
      const end = wall();
      const s1 = sched();
      note({
        kind: 'autocommit',
        ms: r2(end - t),
        t: r3(t),
        end: r3(end),
        cpu: r2(s1[0] - s0[0]),
        rq: r2(s1[1] - s0[1]),
        sql: sql.slice(0, 80),
      });
    }
  };
