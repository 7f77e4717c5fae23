import { supersedeRecord } from '../../core/records/records.js';
import type { RedactionReport } from '../../core/redaction/gate.js';
import { BODY_MAX, TITLE_MAX } from '../../shared/types.js';
import type { ToolContext } from '../context.js';
import type { ToolDef } from '../protocol.js';
import { type Json, registerTool } from '../result.js';
import { optional, string } from '../schema.js';
import { redactedNote } from './record.js';

const description = `Replace a stored fact that is no longer true: marks the old record superseded (kept as history, no longer returned by default) and creates its replacement with the same type and scope. Use it when the developer changes a decision, convention or preference, or a record turns out wrong; use ctx_record for facts that are new.
The body is the full new fact, not a diff; the rationale says why it changed and is appended to the body. If the old record was already superseded, the call fails and names current_head: supersede that one instead.`;

export function registerSupersede(tools: ToolDef[], ctx: ToolContext): void {
  registerTool(tools, ctx, {
    name: 'ctx_supersede',
    title: 'Supersede a fact',
    description,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    writes: true,
    inputSchema: {
      old_id: string({ min: 1, max: 64, description: 'Id of the current record being replaced.' }),
      new_body: string({
        min: 1,
        max: BODY_MAX,
        description: 'The complete replacement fact; with the rationale it must fit 2,000 characters.',
      }),
      rationale: string({ min: 1, max: 500, description: 'Why the fact changed, in a sentence.' }),
      new_title: optional(
        string({
          min: 1,
          max: TITLE_MAX,
          description: 'A new title when the old one no longer fits (default: keep it).',
        }),
      ),
    },
    run(args, call): Json {
      const { app } = ctx;
      const reports: RedactionReport[] = [];
      const res = supersedeRecord({ ...app.records(), onRedacted: (r) => reports.push(r) }, args.old_id, {
        body: args.new_body,
        rationale: args.rationale,
        title: args.new_title,
        confidence: 'explicit',
        source: 'mcp_tool',
        sessionId: call.sessionId,
      });
      return {
        old_id: res.old_id,
        new_id: res.new_id,
        type: res.record.type,
        scope: res.record.scope,
        title: res.record.title,
        valid_from: res.record.valid_from,
        ...(reports[0] ? { redacted: redactedNote(reports[0]) } : {}),
      };
    },
  });
}
