import type { Db } from '../database/open.js';
import { ensureSignature, forgetSignature, openVectorStore } from '../database/vectors/open.js';
import type { VectorStore } from '../database/vectors/store.js';
import type { Embedder } from '../embed/embedder.js';
import { modelPresent } from '../embed/model-files.js';
import { type ModelSpec, modelSignature, selectModel } from '../embed/models.js';
import type { Config } from './config.js';
import type { Env } from './context.js';
import type { Paths } from './paths.js';
import {
  resolveSemanticPackage,
  semanticPackagesDir,
  sqliteVecEntry,
  TRANSFORMERS,
} from './semantic-runtime.js';

/**
 * The semantic layer's composition (v0.2): which model, where it lives, which vector store, and
 * — when something is off — why, in words `agentctx status` can print. Only CLI commands that
 * need vectors and the MCP server come here; the hooks never do (CONTRACTS.md §inv-6).
 *
 * `AGENTCTX_EMBED_MODEL` names a known model instead of the configured tier and
 * `AGENTCTX_MODEL_PATH` points at a folder holding it (tests and benchmarks use the fixtures).
 */

/**
 * What query-time vectors cost: the MCP server's resident memory after ctx_search calls,
 * measured with `npm run measure:mcp-memory` (Linux x64, Node 20): keyword-only 70 MB; with
 * `search.queryVectors` on, 146 MB with the small glove test fixture and about 430 MB with
 * bge-small-en-v1.5 (the default model; the quality tier is larger still).
 */
export const QUERY_VECTORS_MEMORY =
  'about 430 MB resident per MCP process with bge-small-en-v1.5, against 70 MB keyword-only';
export const QUERY_VECTORS_HINT = `agentctx config set search.queryVectors true turns them on: ${QUERY_VECTORS_MEMORY}`;

export interface SemanticConfig {
  enabled: boolean;
  /** Why the layer is off (config, unknown model). */
  offReason?: string;
  model?: ModelSpec;
  modelsDir: string;
  /** `AGENTCTX_MODEL_HOST`: a mirror in the Hugging Face URL layout (tests: 127.0.0.1). */
  remoteHost?: string;
  /** Where `agentctx init --semantic` installs the runtime (semantic-runtime.ts). */
  packagesDir?: string;
}

export function semanticConfig(config: Config, paths: Paths, env: Env): SemanticConfig {
  const modelsDir = env.AGENTCTX_MODEL_PATH || paths.models;
  const packagesDir = semanticPackagesDir(paths);
  const host = env.AGENTCTX_MODEL_HOST ? { remoteHost: env.AGENTCTX_MODEL_HOST } : {};
  if (config.embeddings?.enabled === false)
    return {
      enabled: false,
      offReason: 'turned off (agentctx config --embeddings turns it on)',
      modelsDir,
      packagesDir,
    };
  try {
    return {
      enabled: true,
      model: selectModel(config.modelTier, env.AGENTCTX_EMBED_MODEL),
      modelsDir,
      packagesDir,
      ...host,
    };
  } catch (err) {
    return { enabled: false, offReason: (err as Error).message, modelsDir, packagesDir };
  }
}

/**
 * Whether an optional package can be resolved, without loading it: in `dir` (the home's
 * semantic folder, for transformers.js) or beside this install.
 */
export function packageInstalled(name: string, dir?: string): boolean {
  return resolveSemanticPackage(name, dir) !== null;
}

/** Why the layer is keyword-only when transformers.js is missing, with the way to get it. */
export const NO_RUNTIME = `${TRANSFORMERS} is not installed (agentctx init --semantic installs it)`;

interface SemanticState {
  /** What `status` and `consolidate` report. */
  embeddings: 'on' | 'off';
  reason?: string;
  model?: string;
  runtime: boolean;
  model_present: boolean;
  store?: VectorStore;
  store_kind?: string;
  store_fallback_reason?: string;
}

/**
 * Open the vector store for `db` (loading sqlite-vec when it can) and tie it to the model.
 * Never throws: a failure leaves the layer off with a reason.
 */
export async function openSemantic(
  db: Db,
  sc: SemanticConfig,
  opts: { rebuild?: boolean } = {},
): Promise<SemanticState> {
  const runtime = packageInstalled(TRANSFORMERS, sc.packagesDir);
  if (!sc.enabled || !sc.model) {
    return { embeddings: 'off', reason: sc.offReason ?? 'off', runtime, model_present: false };
  }
  const present = modelPresent(sc.modelsDir, sc.model);
  try {
    const opened = await openVectorStore(db, sc.model.dims, 'auto', sqliteVecEntry(sc.packagesDir));
    if (opts.rebuild) forgetSignature(db);
    ensureSignature(db, opened.store, modelSignature(sc.model));
    const state: SemanticState = {
      embeddings: runtime ? 'on' : 'off',
      model: sc.model.name,
      runtime,
      model_present: present,
      store: opened.store,
      store_kind: opened.store.kind,
      ...(opened.fallbackReason ? { store_fallback_reason: opened.fallbackReason } : {}),
    };
    if (!runtime) state.reason = `${NO_RUNTIME}: keyword-only`;
    return state;
  } catch (err) {
    return {
      embeddings: 'off',
      reason: `vector store unavailable: ${(err as Error).message}`,
      model: sc.model.name,
      runtime,
      model_present: present,
    };
  }
}

/** Load the configured model (dynamic import of transformers.js). */
export async function loadEmbedder(
  sc: SemanticConfig,
  opts: {
    download?: boolean;
    onNotice?: (l: string) => void;
    onProgress?: (f: string, x: number) => void;
  } = {},
): Promise<Embedder> {
  if (!sc.model) throw new Error(sc.offReason ?? 'embeddings are off');
  const { loadTransformersEmbedder } = await import('../embed/transformers.js');
  const runtime = resolveSemanticPackage(TRANSFORMERS, sc.packagesDir);
  return loadTransformersEmbedder({
    model: sc.model,
    ...(runtime?.from === 'home' ? { runtimeEntry: runtime.entry } : {}),
    modelsDir: sc.modelsDir,
    ...(opts.download ? { download: true } : {}),
    ...(sc.remoteHost ? { remoteHost: sc.remoteHost } : {}),
    ...(opts.onNotice ? { onNotice: opts.onNotice } : {}),
    ...(opts.onProgress ? { onProgress: opts.onProgress } : {}),
  });
}
