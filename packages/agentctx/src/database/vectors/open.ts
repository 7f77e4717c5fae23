import { createRequire } from 'node:module';
import type { Db } from '../open.js';
import { createJsVectorStore } from './js-store.js';
import { createSqliteVecStore } from './sqlite-vec-store.js';
import type { VectorStore, VectorStoreKind } from './store.js';

/**
 * Choose and open the vector store on `db`: sqlite-vec when its package and platform
 * binary load, the JavaScript store otherwise (CONTRACTS.md §rung-2 keeps keyword retrieval as is;
 * the vectors still work, only slower). Never throws for a missing extension.
 */

interface OpenedVectors {
  store: VectorStore;
  /** Why sqlite-vec is not in use, when it is not. */
  fallbackReason?: string;
}

/**
 * Load sqlite-vec into `db`, from `entry` (its main file, where the app found it: the agentctx
 * home's semantic folder) or else as this install resolves it (a checkout's dev dependency);
 * the reason it cannot be loaded otherwise.
 */
export async function loadSqliteVec(db: Db, entry?: string | null): Promise<string | null> {
  let mod: { load: (db: Db) => void };
  try {
    mod = (entry ? createRequire(import.meta.url)(entry) : await import('sqlite-vec')) as {
      load: (db: Db) => void;
    };
  } catch {
    return 'sqlite-vec is not installed (`agentctx init --semantic` installs it)';
  }
  try {
    mod.load(db);
    db.prepare('SELECT vec_version()').get();
    return null;
  } catch (err) {
    return `sqlite-vec did not load on this platform: ${(err as Error).message.split('\n')[0]}`;
  }
}

export async function openVectorStore(
  db: Db,
  dims: number,
  prefer: VectorStoreKind | 'auto' = 'auto',
  vecEntry?: string | null,
): Promise<OpenedVectors> {
  if (prefer === 'js')
    return { store: createJsVectorStore(db, dims), fallbackReason: 'the JS store was requested' };
  const reason = await loadSqliteVec(db, vecEntry);
  if (reason === null) {
    try {
      return { store: createSqliteVecStore(db, dims) };
    } catch (err) {
      return { store: createJsVectorStore(db, dims), fallbackReason: (err as Error).message };
    }
  }
  return { store: createJsVectorStore(db, dims), fallbackReason: reason };
}

/**
 * Tie the store to the model producing its vectors. When the model (or the store kind)
 * changed, every vector is dropped and every current record marked pending again: a model
 * change re-embeds. Returns true when it reset.
 */
export function ensureSignature(db: Db, store: VectorStore, signature: string): boolean {
  const key = `signature:${store.kind}`;
  const row = db.prepare('SELECT value FROM embedding_meta WHERE key = ?').get(key) as
    | { value: string }
    | undefined;
  if (row?.value === signature) return false;
  db.transaction(() => {
    store.clear();
    db.prepare('UPDATE records SET pending_embedding = 1 WHERE pending_embedding != 1').run();
    db.prepare("DELETE FROM embedding_meta WHERE key LIKE 'vec_dup_after:%'").run();
    db.prepare(
      'INSERT INTO embedding_meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value',
    ).run(key, signature);
  }).immediate();
  return true;
}

/** Forget the model signature so the next run rebuilds (`consolidate --rebuild-embeddings`). */
export function forgetSignature(db: Db): void {
  db.prepare("DELETE FROM embedding_meta WHERE key LIKE 'signature:%'").run();
}
