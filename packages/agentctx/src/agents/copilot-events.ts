import {
  oneLine,
  parseJsonLines,
  summariseToolInput,
  type TranscriptEvent,
  type TranscriptRead,
  type TranscriptReader,
  transcriptReader,
} from '../claude/transcript.js';
import { isObject, type Json } from '../claude/transcript-json.js';
import { toolResultEvent } from './gemini-parts.js';

/**
 * Copilot CLI's session log (`~/.copilot/session-state/<session>/events.jsonl`, agentStop's
 * `transcriptPath`), measured with 1.0.102, read into the same neutral events as Claude Code
 * transcripts. One event a line, `{type, data, id, timestamp, parentId}`:
 * - `user.message`: `data.content` is what the developer typed (`transformedContent` adds the
 *   date and the hooks' `<system_reminder>`); a `source` marks messages Copilot injected itself;
 * - `assistant.message`: `data.content`, the text (its `toolRequests` repeat below);
 * - `tool.execution_start` `{toolCallId, toolName, arguments}` (an MCP tool as `<server>-<tool>`)
 *   and `tool.execution_complete` `{toolCallId, success, result.content, error,
 *   shellExecution.exitCode}`: a shell command that exits non-zero is `success: true`;
 * - `session.compaction_complete` `{summaryContent}`.
 * Hook, usage and session bookkeeping lines are skipped, and so is a subagent's work (events
 * with `parentToolCallId`).
 */

const WRITES: Record<string, string> = { create: 'Write', edit: 'Edit', str_replace_editor: 'Edit' };

function toolUse(d: Json, at?: string): TranscriptEvent | null {
  const id = typeof d.toolCallId === 'string' ? d.toolCallId : '';
  const name = typeof d.toolName === 'string' ? d.toolName : '';
  if (!name) return null;
  const args: Json = isObject(d.arguments) ? d.arguments : {};
  if (name === 'bash' || name === 'shell') {
    const cmd = typeof args.command === 'string' ? args.command : '';
    return { kind: 'tool_use', id, name: 'Bash', summary: oneLine(cmd, 300), files: [], at };
  }
  const write = WRITES[name];
  const file = args.path ?? args.file_path;
  if (write && typeof file === 'string' && file)
    return { kind: 'tool_use', id, name: write, summary: oneLine(file), files: [file], at };
  return { kind: 'tool_use', id, name, summary: summariseToolInput(name, args), files: [], at };
}

function toolResult(d: Json, at?: string): TranscriptEvent {
  const id = typeof d.toolCallId === 'string' ? d.toolCallId : '';
  const result = isObject(d.result) ? d.result : {};
  const error = isObject(d.error) ? d.error.message : d.error;
  const text = typeof result.content === 'string' ? result.content : typeof error === 'string' ? error : '';
  const exit = isObject(d.shellExecution) ? d.shellExecution.exitCode : undefined;
  const failed = d.success === false || (typeof exit === 'number' && exit !== 0);
  return toolResultEvent(id, text, failed, at);
}

/** One session event into zero or more transcript events. */
function eventsOfCopilotLine(obj: Json): TranscriptEvent[] {
  const at = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const d = isObject(obj.data) ? obj.data : undefined;
  if (!d || typeof d.parentToolCallId === 'string') return [];
  const text = typeof d.content === 'string' ? d.content.trim() : '';
  switch (obj.type) {
    case 'user.message':
      return text && d.source === undefined && d.isAutopilotContinuation !== true
        ? [{ kind: 'user', text, at }]
        : [];
    case 'assistant.message':
      return text ? [{ kind: 'assistant', text, at }] : [];
    case 'tool.execution_start': {
      const e = toolUse(d, at);
      return e ? [e] : [];
    }
    case 'tool.execution_complete':
      return [toolResult(d, at)];
    case 'session.compaction_complete': {
      const summary = typeof d.summaryContent === 'string' ? d.summaryContent.trim() : '';
      return summary ? [{ kind: 'compact_summary', text: summary, at }] : [];
    }
    default:
      return [];
  }
}

export function parseCopilotEventsText(text: string): Omit<TranscriptRead, 'endOffset'> {
  return parseJsonLines(text, eventsOfCopilotLine);
}

export const copilotEventsReader: TranscriptReader = transcriptReader(parseCopilotEventsText);
