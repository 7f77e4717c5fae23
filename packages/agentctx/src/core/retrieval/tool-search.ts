import type { RecordType } from '../../shared/types.js';
import type { SearchOptions } from './search-types.js';

/**
 * The engine settings of `ctx_search` (the MCP tool) in one place: the tool builds its options
 * here and `bench:retrieval --path mcp` does too, so the benchmark cannot drift from the tool.
 * Unlike the prompt hook (PROMPT_SEARCH) the tool keeps the engine's defaults: the whole
 * candidate pool, the full postings budget, the exact pool (no index-first ranking) and no
 * weak-match filter — the agent asked, and reads an index of up to 15 titles, not bodies.
 */
export const TOOL_SEARCH = {
  /** Results when the caller names no limit. */
  defaultLimit: 10,
  /** The most results one call may ask for. */
  maxLimit: 15,
} as const;

interface ToolSearchArgs {
  projectId: string;
  query: string;
  type?: RecordType;
  scope?: 'project' | 'global';
  limit?: number;
  history?: boolean;
  /** Records linked to a file (the tool's `file` argument), when given. */
  onlyIds?: readonly string[];
  /** `as_of`: what was true (and known) then. */
  time?: SearchOptions['time'];
  now: Date;
}

/** The `search` options of one `ctx_search` call. */
export function toolSearchOptions(args: ToolSearchArgs): SearchOptions {
  return {
    projectId: args.projectId,
    query: args.query,
    types: args.type ? [args.type] : undefined,
    scope: args.scope ?? 'project',
    limit: Math.min(args.limit ?? TOOL_SEARCH.defaultLimit, TOOL_SEARCH.maxLimit),
    history: args.history === true,
    onlyIds: args.onlyIds,
    ...(args.time ? { time: args.time } : {}),
    now: args.now,
  };
}
