/**
 * Record embeddings (derived, CONTRACTS.md §stored-derived: dropping them loses nothing). One
 * interface, two implementations: sqlite-vec's `vec0` table `records_vec` when the extension loads,
 * and a brute-force JavaScript cosine scan over BLOBs in a plain table when it does not. Both search
 * exhaustively (no ANN) and only among current records matching the filter.
 */

export type VectorStoreKind = 'sqlite-vec' | 'js';

interface VectorFilter {
  /** Namespaces to search (a project and `_global`, typically). */
  projectIds: readonly string[];
  types?: readonly string[];
  excludeIds?: readonly string[];
}

export interface VectorHit {
  id: string;
  /** Cosine similarity, -1..1. */
  similarity: number;
}

export interface VectorStore {
  readonly kind: VectorStoreKind;
  readonly dims: number;
  /** Insert or replace. Callers batch these inside their own transaction. */
  upsert(id: string, vector: Float32Array): void;
  remove(id: string): void;
  get(id: string): Float32Array | undefined;
  /** The `k` most similar current records (superseded ones never come back). */
  search(query: Float32Array, k: number, filter: VectorFilter): VectorHit[];
  /** Stored vectors (of any record). */
  count(): number;
  /** Drop every vector (and re-create the table). */
  clear(): void;
  /** Drop vectors whose record is gone or superseded; returns how many. */
  prune(): number;
}

export function toBlob(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}

export function fromBlob(b: Buffer | Uint8Array): Float32Array {
  // copy: the Buffer's memory may be shared and unaligned
  const out = new Float32Array(b.byteLength / 4);
  new Uint8Array(out.buffer).set(b);
  return out;
}

/** SQL over `records r` restricting to current records matching the filter. */
export function filterSql(f: VectorFilter): { sql: string; args: string[] } {
  const parts = [
    `r.project_id IN (${f.projectIds.map(() => '?').join(',') || "''"})`,
    'r.superseded_at IS NULL',
  ];
  const args: string[] = [...f.projectIds];
  if (f.types && f.types.length > 0) {
    parts.push(`r.type IN (${f.types.map(() => '?').join(',')})`);
    args.push(...f.types);
  }
  if (f.excludeIds && f.excludeIds.length > 0) {
    parts.push('r.id NOT IN (SELECT value FROM json_each(?))');
    args.push(JSON.stringify(f.excludeIds));
  }
  return { sql: parts.join(' AND '), args };
}

export function checkDims(store: { dims: number }, v: Float32Array): void {
  if (v.length !== store.dims)
    throw new Error(`vector has ${v.length} dimensions; the store holds ${store.dims}`);
}
