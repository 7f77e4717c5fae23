import { createRecord } from '../../core/records/records.js';
import { describeRedaction, type RedactionReport } from '../../core/redaction/gate.js';
import { BODY_MAX, RECORD_TYPES, SCOPES, TITLE_MAX } from '../../shared/types.js';
import type { ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';
import { oneOf, optional, string } from '../schema.js';

const description = `Save one new fact to this project's context so future sessions know it: a decision (with its rationale), a convention (how code is written here), a preference (how the developer works), a discovery about the codebase, a bugfix (bug, cause, fix), or a handover (current task, blockers, next steps).
Record only what the developer stated, chose or confirmed — not your own guesses. One fact per record: a short title (≤ 120 characters) and a self-contained body (≤ 2,000 characters).
If the fact replaces an existing record (found with ctx_search), pass its id as "supersedes", or use ctx_supersede; never record a contradicting duplicate. scope "global" is for the developer's preferences that hold across all projects.`;

/** What the redaction gate took out, for the agent: kinds and counts, never the values. */
export function redactedNote(report: RedactionReport): Json {
  return {
    ...report,
    note: `${describeRedaction(report)}; the record stores placeholders like [REDACTED:<kind>] instead`,
  };
}

export function registerRecord(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_record',
    title: 'Record a fact',
    description,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    writes: true,
    inputSchema: {
      type: oneOf(RECORD_TYPES, { description: 'What kind of fact this is.' }),
      title: string({ min: 1, max: TITLE_MAX, description: 'One line naming the fact, ≤ 120 characters.' }),
      body: string({
        min: 1,
        max: BODY_MAX,
        description: 'The fact itself, with its rationale, ≤ 2,000 characters.',
      }),
      supersedes: optional(
        string({
          min: 1,
          max: 64,
          description: 'Id of a current record of the same type that this one replaces.',
        }),
      ),
      scope: optional(
        oneOf(SCOPES, { description: 'project (default) or global (developer preferences everywhere).' }),
      ),
    },
    run(args, call): Json {
      const { app } = ctx;
      const reports: RedactionReport[] = [];
      const rec = createRecord(
        { ...app.records(), onRedacted: (r) => reports.push(r) },
        {
          type: args.type,
          title: args.title,
          body: args.body,
          scope: args.scope ?? 'project',
          supersedes: args.supersedes ?? null,
          confidence: 'explicit',
          source: 'mcp_tool',
          sessionId: call.sessionId,
        },
      );
      const out: Json = {
        id: rec.id,
        type: rec.type,
        scope: rec.scope,
        title: rec.title,
        valid_from: rec.valid_from,
        recorded_at: rec.recorded_at,
      };
      if (args.supersedes) out.supersedes = args.supersedes;
      if (reports[0]) out.redacted = redactedNote(reports[0]);
      return out;
    },
  });
}
