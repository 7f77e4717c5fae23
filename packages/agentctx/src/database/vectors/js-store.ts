import type { Db } from '../open.js';
import { checkDims, filterSql, fromBlob, toBlob, type VectorHit, type VectorStore } from './store.js';

/**
 * The fallback store: vectors as float32 BLOBs in `records_vec_js` (migration 4), searched by a
 * brute-force cosine scan in JavaScript. At agentctx's scale (< 10k records) this is a few ms.
 */
export function createJsVectorStore(db: Db, dims: number): VectorStore {
  const up = db.prepare(
    'INSERT INTO records_vec_js (record_id, embedding) VALUES (?, ?) ON CONFLICT(record_id) DO UPDATE SET embedding = excluded.embedding',
  );
  const del = db.prepare('DELETE FROM records_vec_js WHERE record_id = ?');
  const one = db.prepare('SELECT embedding FROM records_vec_js WHERE record_id = ?');
  return {
    kind: 'js',
    dims,
    upsert(id, vector) {
      checkDims(this, vector);
      up.run(id, toBlob(vector));
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
      const rows = db
        .prepare(
          `SELECT v.record_id AS id, v.embedding AS embedding FROM records_vec_js v
           JOIN records r ON r.id = v.record_id WHERE ${f.sql}`,
        )
        .raw()
        .iterate(...f.args) as IterableIterator<[string, Buffer]>;
      let qn = 0;
      for (let i = 0; i < dims; i++) qn += query[i]! * query[i]!;
      qn = Math.sqrt(qn);
      const hits: VectorHit[] = [];
      const view = new Float32Array(dims);
      const bytes = new Uint8Array(view.buffer);
      for (const [id, blob] of rows) {
        if (blob.byteLength !== dims * 4) continue;
        bytes.set(blob);
        let dot = 0;
        let vn = 0;
        for (let i = 0; i < dims; i++) {
          const x = view[i]!;
          dot += x * query[i]!;
          vn += x * x;
        }
        const sim = qn > 0 && vn > 0 ? dot / (qn * Math.sqrt(vn)) : 0;
        hits.push({ id, similarity: sim });
      }
      hits.sort((a, b) => b.similarity - a.similarity || (a.id < b.id ? -1 : 1));
      return hits.slice(0, Math.max(0, k));
    },
    count() {
      return (db.prepare('SELECT COUNT(*) AS n FROM records_vec_js').get() as { n: number }).n;
    },
    clear() {
      db.prepare('DELETE FROM records_vec_js').run();
    },
    prune() {
      return db
        .prepare(
          `DELETE FROM records_vec_js WHERE record_id NOT IN (SELECT id FROM records WHERE superseded_at IS NULL)`,
        )
        .run().changes;
    },
  };
}
