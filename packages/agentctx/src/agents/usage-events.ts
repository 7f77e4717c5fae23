import type { TranscriptEvent } from '../claude/transcript.js';
import { idsInResult, type UsageEvent } from '../claude/transcript-usage.js';

/**
 * Usage evidence from another agent's transcript, through its extraction reader: the
 * developer's prompts, the assistant's words, what its tools did (the one-line summaries the
 * readers keep, and the files edited), and its calls to agentctx's MCP tools with the record
 * ids their results named. Coarser than Claude Code's usage reader (tool inputs are summaries),
 * but without it every record shown to these agents would be judged unused.
 */
/** `mcp__agentctx__ctx_search` (Claude Code, Qwen), `agentctx-ctx_search` (Copilot CLI), bare. */
const MCP_TOOL = /(?:^|[_-])(ctx_search|ctx_get|ctx_related)$/;
/** A record id (a ULID). */
const ULID = /\b[0-9A-HJKMNP-TV-Z]{26}\b/g;

export function usageEventsOf(events: readonly TranscriptEvent[]): UsageEvent[] {
  const out: UsageEvent[] = [];
  const pending = new Map<
    string,
    { tool: 'ctx_search' | 'ctx_get' | 'ctx_related'; asked: string[]; at: string | null }
  >();
  for (const e of events) {
    const at = e.at ?? null;
    if (e.kind === 'user') out.push({ kind: 'prompt', text: e.text, at });
    else if (e.kind === 'assistant') out.push({ kind: 'said', text: e.text, at });
    else if (e.kind === 'tool_use') {
      const m = MCP_TOOL.exec(e.name);
      if (m) {
        const asked = m[1] === 'ctx_get' ? [...e.summary.matchAll(ULID)].map((x) => x[0]) : [];
        pending.set(e.id, { tool: m[1] as 'ctx_search' | 'ctx_get' | 'ctx_related', asked, at });
      } else out.push({ kind: 'did', tool: e.name, text: e.summary, files: e.files, at });
    } else if (e.kind === 'tool_result') {
      const call = pending.get(e.toolUseId);
      if (!call) continue;
      pending.delete(e.toolUseId);
      // result summaries are cut: the ids whole in them, from "id" fields or bare
      const bare = [...e.summary.matchAll(ULID)].map((x) => x[0]);
      const returned = [...new Set([...idsInResult(e.summary), ...bare])];
      out.push({ kind: 'mcp', tool: call.tool, asked: call.asked, returned, at: call.at });
    }
  }
  return out;
}
