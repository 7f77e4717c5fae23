import {
  parseJsonLines,
  type TranscriptEvent,
  type TranscriptRead,
  type TranscriptReader,
  transcriptReader,
} from '../claude/transcript.js';
import { isObject, type Json } from '../claude/transcript-json.js';
import { eventsOfParts } from './gemini-parts.js';

/**
 * Qwen Code's chat records (`~/.qwen/projects/<cwd with / as ->/chats/<session>.jsonl`, the
 * hooks' `transcript_path`), read into the same neutral events as Claude Code transcripts.
 * One record a line: `{type: user|assistant|tool_result|system, timestamp, message: {role,
 * parts[]}}`. Context Qwen or a hook attached to a prompt (`<qwen:…-context>` parts, system
 * reminders) is not the developer's words and is dropped; system records are telemetry.
 */

const INJECTED =
  /<qwen:[a-z-]+-context\b[^>]*>[\s\S]*?<\/qwen:[a-z-]+-context>|<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** One chat record into zero or more events. Exported for tests. */
function eventsOfQwenRecord(obj: Json): TranscriptEvent[] {
  const at = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const msg = isObject(obj.message) ? obj.message : undefined;
  if (!msg || !Array.isArray(msg.parts)) return [];
  if (obj.type === 'user') {
    const parts = msg.parts
      .filter(isObject)
      .map((p) => (typeof p.text === 'string' ? { ...p, text: p.text.replace(INJECTED, '').trim() } : p))
      .filter((p) => typeof p.text !== 'string' || p.text !== '');
    return eventsOfParts(parts, 'user', at);
  }
  if (obj.type === 'assistant') return eventsOfParts(msg.parts, 'model', at);
  if (obj.type === 'tool_result')
    return eventsOfParts(msg.parts, 'user', at).filter((e) => e.kind === 'tool_result');
  return [];
}

export function parseQwenChatText(text: string): Omit<TranscriptRead, 'endOffset'> {
  return parseJsonLines(text, eventsOfQwenRecord);
}

export const qwenChatReader: TranscriptReader = transcriptReader(parseQwenChatText);
