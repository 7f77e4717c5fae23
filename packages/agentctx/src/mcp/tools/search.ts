import { appendLog } from '../../app/log.js';
import { relatedRecords } from '../../core/records/related.js';
import { hybridSearch } from '../../core/retrieval/hybrid.js';
import { indexEntriesOf } from '../../core/retrieval/index-entry.js';
import { search } from '../../core/retrieval/search.js';
import { TOOL_SEARCH, toolSearchOptions } from '../../core/retrieval/tool-search.js';
import { errorMessage } from '../../shared/errors.js';
import { RECORD_TYPES, SCOPES } from '../../shared/types.js';
import { ladderMarker, mcpWriters, type ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';
import { boolean, integer, oneOf, optional, string } from '../schema.js';
import { asOfField, timeTravelOf } from './as-of.js';

export const SEARCH_MAX = TOOL_SEARCH.maxLimit;
export const SEARCH_DEFAULT = TOOL_SEARCH.defaultLimit;

/** The `limit` argument of the tools that return an index (ctx_search, ctx_related). */
export const indexLimitField = optional(
  integer({
    min: 1,
    max: SEARCH_MAX,
    description: `Results to return, 1–${SEARCH_MAX} (default ${SEARCH_DEFAULT}).`,
  }),
);
/** With `file`, the query runs over the nearest this-many records linked to the file. */
const FILE_CANDIDATES = 200;

const description = `Search this project's stored context: decisions, conventions, preferences, discoveries, bugfixes, handovers and profile facts recorded in earlier sessions (plus the developer's global preferences).
Call it before making or changing a design choice, when unsure how something is done in this codebase, when the user refers to something decided earlier, or before recording a fact (to find the record to supersede instead of duplicating it).
Returns a compact index only — {id, type, title, age, confidence, score} per match, best first, no bodies. Call ctx_get with the ids you need to read the full records. Superseded (outdated) records are left out unless history is true; as_of asks what was valid on a past date. "confidence": explicit = stated by the developer; inferred = observed, treat as a hypothesis; reinforced = seen repeatedly.`;

export function registerSearch(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_search',
    title: 'Search project context',
    description,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      query: string({ min: 1, max: 2000, description: 'What you are looking for, in plain words.' }),
      type: optional(oneOf(RECORD_TYPES, { description: 'Only records of this type.' })),
      file: optional(
        string({
          min: 1,
          max: 1000,
          description: 'Only records linked to this file (path relative to the repository root).',
        }),
      ),
      scope: optional(
        oneOf(SCOPES, {
          description:
            'project (default): this project and global preferences; global: global preferences only.',
        }),
      ),
      limit: indexLimitField,
      history: optional(
        boolean({
          description:
            'Also return superseded records (marked "superseded"). Only when you need past decisions.',
        }),
      ),
      as_of: asOfField,
    },
    async run(args): Promise<Json> {
      const { app } = ctx;
      const now = app.clock();
      const time = timeTravelOf(args.as_of);
      const onlyIds = args.file
        ? relatedRecords(app.db, args.file, {
            projectId: app.project.id,
            root: app.project.root,
            history: args.history || time !== undefined,
            limit: FILE_CANDIDATES,
          }).map((r) => r.id)
        : undefined;
      if (onlyIds && onlyIds.length === 0) {
        const degraded = ladderMarker(ctx);
        return { results: [], note: 'no records are linked to this file', ...(degraded ? { degraded } : {}) };
      }
      const writers = mcpWriters(ctx);
      const opts = {
        ...toolSearchOptions({ ...args, projectId: app.project.id, onlyIds, time, now }),
        ...(writers ? { writers } : {}),
      };
      // hybrid once the background embedder is ready; keyword-only before, and if it fails
      const sem = ctx.semantic?.ready();
      let res = null;
      if (sem && !opts.history && !time) {
        try {
          res = hybridSearch(app.db, opts, await sem.embedder.embedQuery(args.query), sem.store);
        } catch (err) {
          appendLog(app.paths.logs, 'mcp', `hybrid search failed, keyword-only: ${errorMessage(err)}`);
        }
      }
      res ??= search(app.db, opts);
      const out: Json = { results: indexEntriesOf(app.db, res.hits, now) };
      if (time) out.as_of = time.asOf;
      const degraded = res.degraded ?? ladderMarker(ctx);
      if (degraded) out.degraded = degraded;
      return out;
    },
  });
}
