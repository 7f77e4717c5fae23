import { relatedRecords } from '../../core/records/related.js';
import { type IndexEntry, indexEntriesOf } from '../../core/retrieval/index-entry.js';
import type { SearchHit } from '../../core/retrieval/search-types.js';
import { getRecord } from '../../database/records-repo.js';
import { writerAllowed } from '../../database/writer-filter.js';
import { ladderMarker, mcpWriters, type ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';
import { boolean, optional, string } from '../schema.js';
import { indexLimitField, SEARCH_DEFAULT, SEARCH_MAX } from './search.js';

const description = `List the stored records linked to a file, nearest first. Linked to the file itself: records of the sessions that edited it (error stubs, test outcomes, extracted decisions). Reached through the code around it: records of other edited files that import the same package or module, import this file or are imported by it; and records that write, as code (\`chargeCard\` or chargeCard()), a symbol this file defines or imports by name; when those are few, further along the same links. The module and symbol links come from the imports and top-level definitions of edited TS/JS, Python, Go and Rust files, read by agentctx consolidate at session end (not at call time); standard-library imports link nothing. Call it before editing a file you have not touched in this session, to learn the rules and past bugs that apply to it.
Returns the same compact index as ctx_search ({id, type, title, age, confidence, score}: score 1 when linked to the file, else 1/(1 + hops); no bodies); read the ones you need with ctx_get.`;

export function registerRelated(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_related',
    title: 'Context linked to a file',
    description,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      file: string({
        min: 1,
        max: 1000,
        description: 'File path, relative to the repository root (absolute also works).',
      }),
      limit: indexLimitField,
      history: optional(boolean({ description: 'Also return superseded records.' })),
    },
    run(args): Json {
      const { app } = ctx;
      const now = app.clock();
      const limit = Math.min(args.limit ?? SEARCH_DEFAULT, SEARCH_MAX);
      const linked = relatedRecords(app.db, args.file, {
        projectId: app.project.id,
        root: app.project.root,
        history: args.history,
        limit,
      });
      const hits: SearchHit[] = [];
      const writers = mcpWriters(ctx);
      for (const l of linked) {
        const record = getRecord(app.db, l.id);
        if (!record || !writerAllowed(writers, record.agent)) continue;
        const score = Math.round((1 / (1 + l.depth)) * 1000) / 1000;
        hits.push({ record, score, relevance: 0, matched: 0, coverage: 0 });
      }
      const results: IndexEntry[] = indexEntriesOf(app.db, hits, now);
      const out: Json = { file: args.file, results };
      if (results.length === 0) out.note = 'no records are linked to this file';
      const degraded = ladderMarker(ctx);
      if (degraded) out.degraded = degraded;
      return out;
    },
  });
}
