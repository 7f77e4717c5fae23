import type { RecordedRequest } from './fake-messages-api.js';

/**
 * Reading the requests a real agent sent to the fake Messages API: which tools a request
 * offered, whether it is a turn of the agent loop, and the tool results it carries back.
 */

/** The names of the tools a request offered. */
export function toolNames(req: RecordedRequest): string[] {
  const tools = req.body.tools;
  return Array.isArray(tools) ? (tools as { name?: string }[]).map((t) => String(t.name)) : [];
}

/** A turn of Claude Code's agent loop (it offers the Bash tool): not title generation, not extraction. */
export function isAgentTurn(req: RecordedRequest): boolean {
  return toolNames(req).includes('Bash');
}

export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: string | { type: string; text?: string }[];
  is_error?: boolean;
}

/** The tool_result blocks of a request's user messages. */
export function toolResults(req: RecordedRequest): ToolResultBlock[] {
  const out: ToolResultBlock[] = [];
  for (const m of (req.body.messages ?? []) as { role: string; content: unknown }[]) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content as { type: string }[])
      if (b.type === 'tool_result') out.push(b as ToolResultBlock);
  }
  return out;
}

/** A tool result's text, whether it came as a string or as blocks. */
export function resultText(b: ToolResultBlock): string {
  return typeof b.content === 'string' ? b.content : b.content.map((c) => c.text ?? '').join('');
}
