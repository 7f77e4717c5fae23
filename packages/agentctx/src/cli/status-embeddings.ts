import { vectorWorkOff } from '../app/ladder.js';
import type { SemanticConfig } from '../app/semantic.js';
import { resolveSemanticPackage, sqliteVecEntry, TRANSFORMERS } from '../app/semantic-runtime.js';
import { countPending } from '../core/consolidation/backfill.js';
import type { Db } from '../database/open.js';
import { loadSqliteVec } from '../database/vectors/open.js';
import { modelPresent } from '../embed/model-files.js';
import { modelSignature } from '../embed/models.js';

/**
 * The semantic layer's part of `agentctx status`: on or off and why (config, optional packages
 * missing, model not downloaded, sqlite-vec unavailable), and how far the backfill is. Reads
 * only; never loads the model.
 */
export async function embeddingStatus(
  db: Db,
  sc: SemanticConfig,
  namespaces: readonly string[],
): Promise<{ json: Record<string, unknown>; lines: string[] }> {
  const found = resolveSemanticPackage(TRANSFORMERS, sc.packagesDir);
  const runtime = found !== null;
  const vecEntry = sqliteVecEntry(sc.packagesDir);
  const vecReason = vecEntry
    ? await loadSqliteVec(db, vecEntry)
    : 'sqlite-vec is not installed (`agentctx init --semantic` installs it)';
  const store = vecReason === null ? 'sqlite-vec' : 'js';
  let pending = 0;
  let vectors = 0;
  let current = true;
  try {
    pending = countPending(db, namespaces);
    const table = store === 'sqlite-vec' ? 'records_vec' : 'records_vec_js';
    const exists = db.prepare('SELECT 1 FROM sqlite_master WHERE name = ?').get(table);
    vectors = exists ? (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n : 0;
    const sig = db.prepare('SELECT value FROM embedding_meta WHERE key = ?').get(`signature:${store}`) as
      | { value: string }
      | undefined;
    current = !sc.model || !sig || sig.value === modelSignature(sc.model);
  } catch {
    // an old store without the semantic tables: counts stay 0
  }
  const present = sc.model ? modelPresent(sc.modelsDir, sc.model) : false;
  const off = vectorWorkOff(sc);
  const json = {
    embeddings: {
      status: off ? 'off' : 'on',
      ...(off ? { reason: off } : {}),
      model: sc.model?.name ?? null,
      model_present: present,
      runtime_installed: runtime,
      ...(found ? { runtime_from: found.from === 'home' ? sc.packagesDir : 'this install' } : {}),
      vector_store: store,
      ...(vecReason ? { vector_store_reason: vecReason } : {}),
      vectors,
      pending,
      ...(current ? {} : { model_changed: true }),
    },
  };
  const lines = [
    `vectors   ${
      off
        ? `off: ${off}; retrieval is keyword-only`
        : `on: ${sc.model?.name}, ${vectors} embedded, ${pending} pending${current ? '' : ' (model changed: the next consolidate re-embeds)'}`
    }`,
    `          store ${store === 'sqlite-vec' ? 'sqlite-vec' : `JavaScript cosine scan (${vecReason})`}`,
  ];
  return { json, lines };
}
