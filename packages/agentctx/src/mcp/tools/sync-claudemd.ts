import { driftReport } from '../../core/drift/report.js';
import type { ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';
import { integer, optional } from '../schema.js';

const DRIFT_MAX = 20;
const DRIFT_DEFAULT = 10;

const description = `Compare the project's CLAUDE.md files with the stored context and report drift: current decisions and conventions that CLAUDE.md does not mention ("missing"), and lines of CLAUDE.md that state something since superseded ("contradicted"), each with its record id, plus a proposed diff. Read-only: it never edits CLAUDE.md — show the proposal to the developer and apply it only if they agree.
Paged: at most 20 entries per list per call ("truncated" says whether more exist; continue with offset).`;

export function registerSyncClaudeMd(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_sync_claudemd',
    title: 'CLAUDE.md drift report',
    description,
    annotations: { readOnlyHint: true, openWorldHint: false },
    inputSchema: {
      limit: optional(
        integer({ min: 1, max: DRIFT_MAX, description: 'Entries per list, 1–20 (default 10).' }),
      ),
      offset: optional(
        integer({ min: 0, max: 100_000, description: 'Skip this many entries of each list.' }),
      ),
    },
    run(args): Json {
      const { app } = ctx;
      const report = driftReport(app.db, app.project, {
        limit: Math.min(args.limit ?? DRIFT_DEFAULT, DRIFT_MAX),
        offset: args.offset ?? 0,
        now: app.clock(),
      });
      return { ...report, limit: Math.min(args.limit ?? DRIFT_DEFAULT, DRIFT_MAX), offset: args.offset ?? 0 };
    },
  });
}
