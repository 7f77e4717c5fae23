// A debugging preload that times how long a process holds the store's write lock:
//   AGENTCTX_LOCK_LOG=/tmp/holds.jsonl node -r ./scripts/lock-holds.cjs bin/agentctx.cjs consolidate
// It wraps better-sqlite3's transactions (IMMEDIATE, EXCLUSIVE and deferred ones, timed whole)
// and every write statement run outside a transaction (an implicit transaction of its own), and
// appends one JSON line per hold: its length in ms, its kind, and the nearest named functions
// on the stack (which consolidation step it belongs to). Measurement only; never loaded by agentctx.
const { appendFileSync } = require('node:fs');
const { dirname } = require('node:path');
// the driver the measured program loads (another checkout's bin has its own node_modules)
const Database = require(
  require.resolve('better-sqlite3', { paths: process.argv[1] ? [dirname(process.argv[1])] : [] }),
);

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
const r2 = (x) => (x === undefined ? undefined : Math.round(x * 100) / 100);
// body: the time inside the transaction's function (the rest is BEGIN, waiting, COMMIT)
const note = (kind, ms, sql, body) => {
  if (!log || ms < min) return;
  appendFileSync(log, `${JSON.stringify({ kind, ms: r2(ms), body: r2(body), at: where(), sql })}\n`);
};

const transaction = Database.prototype.transaction;
let body = 0;
Database.prototype.transaction = function (fn) {
  const tx = transaction.call(this, function (...args) {
    const t0 = performance.now();
    try {
      return fn.apply(this, args);
    } finally {
      body = performance.now() - t0;
    }
  });
  const db = this;
  const timed = (variant, label) =>
    function (...args) {
      if (db.inTransaction) return variant.apply(this, args); // a savepoint inside a held one
      const t0 = performance.now();
      const changes = db.prepare('SELECT total_changes() AS n').get().n;
      try {
        return variant.apply(this, args);
      } finally {
        const ms = performance.now() - t0;
        // a deferred transaction that wrote nothing never took the write lock
        const wrote = label !== 'default' || db.prepare('SELECT total_changes() AS n').get().n !== changes;
        if (wrote) note(`tx:${label}`, ms, undefined, body);
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
