import type { Config } from '../app/config.js';
import { degradation, degradedMarker, type LadderInput } from '../app/ladder.js';
import { QUERY_VECTORS_MEMORY } from '../app/semantic.js';

/**
 * The degradation ladder's part of `agentctx status` (CONTRACTS.md §ladder): the rung this install
 * is on, each rung below 1 that applies with its marker and reason, and whether ctx_search embeds
 * queries (`search.queryVectors`, off by default) with what that costs in memory.
 */
export function ladderStatus(input: LadderInput): { json: Record<string, unknown>; lines: string[] } {
  const rungs = degradation(input);
  const marker = degradedMarker(rungs);
  const rung = rungs.length > 0 ? rungs[rungs.length - 1]!.rung : 1;
  const queryVectors = queryVectorsOn(input.config);
  const json = {
    rung,
    degraded: rungs,
    query_vectors: { enabled: queryVectors, memory: QUERY_VECTORS_MEMORY },
  };
  const lines = [
    marker
      ? `fallbacks in use (MCP retrieval results say so: ${marker}):`
      : 'fallbacks none: keyword search with vectors offline, nothing degraded',
    ...rungs.map((r) => `          ${r.marker}: ${r.reason}`),
    queryVectors
      ? `ctx_search hybrid: query-time vectors on (search.queryVectors; ${QUERY_VECTORS_MEMORY})`
      : `ctx_search keyword: query-time vectors off (\`agentctx config set search.queryVectors true\`: ${QUERY_VECTORS_MEMORY})`,
  ];
  return { json, lines };
}

function queryVectorsOn(config: Config): boolean {
  return config.search?.queryVectors === true;
}
