// A debugging preload that times how long a process holds the store's write lock:
//   AGENTCTX_LOCK_LOG=/tmp/holds.jsonl node -r ./scripts/lock-holds.cjs bin/agentctx.cjs consolidate
// It wraps better-sqlite3's transactions (IMMEDIATE, EXCLUSIVE and deferred ones, timed whole)
// and every write statement run outside a transaction (an implicit transaction of its own), and
// appends one JSON line per hold: its length in ms, its kind, and the nearest named functions
// on the stack (which consolidation step it belongs to). Measurement only; never loaded by agentctx.
const { appendFileSync } = require('node:fs');
const Database = require('better-sqlite3');

const log = process.env.AGENTCTX_LOCK_LOG;
const min = Number(process.env.AGENTCTX_LOCK_MIN_MS ?? '0');
const where = () =>
  (new Error().stack ?? '')
    .split('\n')
    .slice(3)
    .map((l) => /at (?:Object\.)?([\w$.]+) \(/.exec(l)?.[1])
    .filter((n) => n && !/^(Function|Database|Statement|wrapped|timed)/.test(n))
    .slice(0, 6)
    .join(' < ');
const note = (kind, ms, sql) => {
  if (!log || ms < min) return;
  appendFileSync(log, `${JSON.stringify({ kind, ms: Math.round(ms * 100) / 100, at: where(), sql })}\n`);
};

const transaction = Database.prototype.transaction;
Database.prototype.transaction = function (fn) {
  const tx = transaction.call(this, fn);
  const db = this;
  const timed = (variant, label) =>
    function (...args) {
      if (db.inTransaction) return variant.apply(this, args); // a savepoint inside a held one
      const t0 = performance.now();
      try {
        return variant.apply(this, args);
      } finally {
        note(`tx:${label}`, performance.now() - t0);
      }
    };
  const out = timed(tx, 'default');
  for (const v of ['deferred', 'immediate', 'exclusive']) {
    out[v] = timed(tx[v], v);
  }
  return out;
};

let patched = false;
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (sql) {
  const stmt = prepare.call(this, sql);
  if (!patched) {
    patched = true;
    const proto = Object.getPrototypeOf(stmt);
    const run = proto.run;
    proto.run = function (...args) {
      if (this.database.inTransaction || this.reader) return run.apply(this, args);
      const t0 = performance.now();
      try {
        return run.apply(this, args);
      } finally {
        const s = this.source.trim();
        if (!/^(BEGIN|COMMIT|ROLLBACK|PRAGMA|SAVEPOINT|RELEASE)/i.test(s))
          note('autocommit', performance.now() - t0, s.slice(0, 80));
      }
    };
  }
  return stmt;
};
