import type { Db } from '../open.js';
import { checkDims, filterSql, fromBlob, toBlob, type VectorStore } from './store.js';

/**
 * The sqlite-vec store: a `vec0` virtual table `records_vec` (CONTRACTS.md §stored-derived). The
 * extension must already be loaded on `db`. Search is the exact scan sqlite-vec does in C
 * (`vec_distance_cosine`), restricted by a join to current records of the filter.
 */
export function createSqliteVecStore(db: Db, dims: number): VectorStore {
  const create = () =>
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS records_vec USING vec0(record_id TEXT PRIMARY KEY, embedding float[${Math.trunc(dims)}] distance_metric=cosine)`,
    );
  create();
  const del = db.prepare('DELETE FROM records_vec WHERE record_id = ?');
  const ins = db.prepare('INSERT INTO records_vec (record_id, embedding) VALUES (?, ?)');
  const one = db.prepare('SELECT embedding FROM records_vec WHERE record_id = ?');
  return {
    kind: 'sqlite-vec',
    dims,
    upsert(id, vector) {
      checkDims(this, vector);
      // vec0 has no upsert
      del.run(id);
      ins.run(id, toBlob(vector));
    },
    remove(id) {
      del.run(id);
    },
    get(id) {
      const row = one.get(id) as { embedding: Buffer } | undefined;
      return row ? fromBlob(row.embedding) : undefined;
    },
    search(query, k, filter) {
      checkDims(this, query);
      const f = filterSql(filter);
      return db
        .prepare(
          `SELECT v.record_id AS id, 1 - vec_distance_cosine(v.embedding, ?) AS similarity
           FROM records_vec v CROSS JOIN records r ON r.id = v.record_id
           WHERE ${f.sql} ORDER BY similarity DESC, v.record_id LIMIT ?`,
        )
        .all(toBlob(query), ...f.args, Math.max(0, Math.trunc(k))) as { id: string; similarity: number }[];
    },
    count() {
      return (db.prepare('SELECT COUNT(*) AS n FROM records_vec').get() as { n: number }).n;
    },
    clear() {
      db.exec('DROP TABLE IF EXISTS records_vec');
      create();
    },
    prune() {
      const gone = db
        .prepare(
          `SELECT record_id FROM records_vec WHERE record_id NOT IN (SELECT id FROM records WHERE superseded_at IS NULL)`,
        )
        .pluck()
        .all() as string[];
      for (const id of gone) del.run(id);
      return gone.length;
    },
  };
}
