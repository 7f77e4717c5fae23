import { dailyExtractionCost } from '../database/extraction-state-repo.js';
import { fts5Available, ftsUsable } from '../database/fts-index.js';
import type { Db } from '../database/open.js';
import { modelPresent } from '../embed/model-files.js';
import { decideBackend } from '../llm/select.js';
import type { Config } from './config.js';
import type { Env } from './context.js';
import type { Paths } from './paths.js';
import { NO_RUNTIME, packageInstalled, type SemanticConfig, semanticConfig } from './semantic.js';
import { TRANSFORMERS } from './semantic-runtime.js';

/**
 * Where this install stands on the degradation ladder of CONTRACTS.md §ladder, for `agentctx
 * status` and the `degraded` marker of the MCP server's retrieval results. Rung 1 (the default) is no
 * entry; each rung below it that applies is one, with its marker and the reason in words:
 * - 2 `no-vectors`: no offline vector work (embeddings off, transformers.js or the model
 *   missing). A missing sqlite-vec alone is not rung 2 here: the JavaScript vector store does
 *   the same work (`status` names the store);
 * - 3 `no-llm`: capture is deterministic only (no model backend, or today's cost cap reached);
 * - 4 `like-search`: this SQLite has no FTS5, or the full-text index is paused.
 * Rung 5 (`pinned-only`) is not a standing state: a search reaches it when LIKE fails too,
 * and says so in its own result.
 */

export type RungMarker = 'no-vectors' | 'no-llm' | 'like-search';

interface RungState {
  rung: 2 | 3 | 4;
  marker: RungMarker;
  reason: string;
}

export interface LadderInput {
  db: Db;
  config: Config;
  paths: Paths;
  env: Env;
  now: Date;
}

/** Why offline vector work cannot run, or undefined when it can (the rung 2 test). */
export function vectorWorkOff(sc: SemanticConfig): string | undefined {
  if (!sc.enabled) return sc.offReason ?? 'turned off';
  if (!packageInstalled(TRANSFORMERS, sc.packagesDir)) return NO_RUNTIME;
  if (!sc.model || !modelPresent(sc.modelsDir, sc.model))
    return `model ${sc.model?.name} is not downloaded (agentctx init --semantic downloads it)`;
  return undefined;
}

/** The rungs below 1 that apply now, highest first on the ladder (2, 3, 4). Never throws. */
export function degradation(input: LadderInput): RungState[] {
  const out: RungState[] = [];
  const vectors = vectorWorkOff(semanticConfig(input.config, input.paths, input.env));
  if (vectors)
    out.push({
      rung: 2,
      marker: 'no-vectors',
      reason: `${vectors}; no vector work offline (digest ranking and near-duplicates are keyword-only)`,
    });
  const llm = llmOff(input);
  if (llm) out.push({ rung: 3, marker: 'no-llm', reason: llm });
  const fts = fullTextOff(input.db);
  if (fts) out.push({ rung: 4, marker: 'like-search', reason: fts });
  return out;
}

/** The marker a response carries: the lowest rung reached, or none at rung 1. */
export function degradedMarker(rungs: readonly RungState[]): RungMarker | undefined {
  return rungs.length > 0 ? rungs[rungs.length - 1]!.marker : undefined;
}

function llmOff(input: LadderInput): string | undefined {
  const backend = decideBackend(input.config.llm, input.env);
  if (!backend.active) return backend.reason;
  try {
    const day = input.now.toISOString().slice(0, 10);
    const cap = input.config.llm.dailyCostCapUsd;
    if (dailyExtractionCost(input.db, day) >= cap)
      return `today's extraction cost cap ($${cap}) is reached; rule-based capture until the next UTC day`;
  } catch {
    // no cost table yet: nothing spent
  }
  return undefined;
}

function fullTextOff(db: Db): string | undefined {
  try {
    if (ftsUsable(db)) return undefined;
    return fts5Available(db)
      ? 'the full-text index is paused (a SQLite without FTS5 wrote to the store); the next agentctx command rebuilds it'
      : 'this SQLite has no FTS5; search uses LIKE';
  } catch {
    return 'the full-text index cannot be read; search uses LIKE';
  }
}
