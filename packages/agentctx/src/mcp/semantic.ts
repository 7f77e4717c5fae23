import type { App } from '../app/context.js';
import { appendLog } from '../app/log.js';
import { loadEmbedder, packageInstalled, QUERY_VECTORS_HINT, semanticConfig } from '../app/semantic.js';
import { sqliteVecEntry } from '../app/semantic-runtime.js';
import { openVectorStore } from '../database/vectors/open.js';
import type { VectorStore } from '../database/vectors/store.js';
import type { Embedder } from '../embed/embedder.js';
import { modelPresent } from '../embed/model-files.js';
import { modelSignature } from '../embed/models.js';
import { errorMessage } from '../shared/errors.js';

/**
 * The MCP server's embedder for query-time vectors, an opt-in (`search.queryVectors`): by
 * default vectors are offline work only (CONTRACTS.md §rung-1, §inv-6) and nothing here loads,
 * so the embedding runtime never enters the process. When turned on, it loads in the
 * background once the server is up: `ctx_search` never waits for it. Until it is ready — and
 * for good when embeddings are off, the runtime or the model is missing, no vectors exist for
 * the configured model, or loading fails — the search is keyword-only exactly as without the
 * semantic layer. Nothing here writes the store or downloads anything: vectors come from
 * consolidation.
 *
 * `AGENTCTX_MCP_EMBED_DELAY_MS` postpones the load (tests use it to show the first call does not
 * wait).
 */

type SemanticPhase = 'loading' | 'ready' | 'off';

export interface McpSemantic {
  phase(): SemanticPhase;
  /** Why it is off, when it is. */
  reason(): string | undefined;
  /** The loaded embedder and store, once ready. */
  ready(): { embedder: Embedder; store: VectorStore } | null;
  dispose(): Promise<void>;
}

export function startSemantic(app: App): McpSemantic {
  let phase: SemanticPhase = 'loading';
  let why: string | undefined;
  let loaded: { embedder: Embedder; store: VectorStore } | null = null;
  let disposed = false;
  const off = (reason: string) => {
    phase = 'off';
    why = reason;
    appendLog(app.paths.logs, 'mcp', `ctx_search keyword-only: ${reason}`);
  };
  const load = async () => {
    if (app.config.search?.queryVectors !== true)
      return off(`query-time vectors are off (${QUERY_VECTORS_HINT})`);
    const sc = semanticConfig(app.config, app.paths, app.env);
    if (!sc.enabled || !sc.model) return off(sc.offReason ?? 'embeddings are off');
    const model = sc.model;
    if (!packageInstalled('@huggingface/transformers', sc.packagesDir))
      return off('@huggingface/transformers is not installed (agentctx init --semantic installs it)');
    if (!modelPresent(sc.modelsDir, model)) return off(`model ${model.name} is not downloaded`);
    // vectors for this model, in which store (read only; a mismatch waits for consolidation)
    const sig = modelSignature(model);
    const kinds = (
      app.db
        .prepare("SELECT key FROM embedding_meta WHERE key LIKE 'signature:%' AND value = ?")
        .all(sig) as {
        key: string;
      }[]
    ).map((r) => r.key.slice('signature:'.length));
    if (kinds.length === 0) return off(`no vectors for model ${model.name} yet (agentctx consolidate)`);
    const opened = await openVectorStore(
      app.db,
      model.dims,
      kinds.includes('sqlite-vec') ? 'auto' : 'js',
      sqliteVecEntry(sc.packagesDir),
    );
    if (!kinds.includes(opened.store.kind) || opened.store.count() === 0)
      return off(`no vectors for model ${model.name} in the ${opened.store.kind} store`);
    const embedder = await loadEmbedder(sc);
    if (disposed) {
      await embedder.dispose();
      return;
    }
    loaded = { embedder, store: opened.store };
    phase = 'ready';
    appendLog(app.paths.logs, 'mcp', `ctx_search hybrid: ${model.name} loaded (${opened.store.kind} store)`);
  };
  const delay = Math.max(0, Number(app.env.AGENTCTX_MCP_EMBED_DELAY_MS) || 0);
  setTimeout(() => {
    load().catch((err: unknown) => off(errorMessage(err).split('\n')[0] ?? 'load failed'));
  }, delay).unref();
  return {
    phase: () => phase,
    reason: () => why,
    ready: () => loaded,
    dispose: async () => {
      disposed = true;
      await loaded?.embedder.dispose();
    },
  };
}
