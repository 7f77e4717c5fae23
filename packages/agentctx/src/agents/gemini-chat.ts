import {
  jsonObjectLines,
  type TranscriptEvent,
  type TranscriptRead,
  type TranscriptReader,
  transcriptReader,
} from '../claude/transcript.js';
import { isObject, type Json } from '../claude/transcript-json.js';
import { eventsOfParts, responseText, toolResultEvent, toolUseEvent } from './gemini-parts.js';

/**
 * Gemini CLI's chat records (`~/.gemini/tmp/<project>/chats/session-<time>-<id>.jsonl`, the
 * hooks' `transcript_path`; measured with 0.61.0), read into the neutral events. A header
 * line (`sessionId`, `startTime`), `{"$set": …}` patches (skipped), and message records
 * `{id, timestamp, type: user|gemini, content, toolCalls?}`. A model message is written again,
 * under the same id, once its tool calls have results: the last copy of an id wins, in the
 * place of its first. Context Gemini or a hook put into a prompt (`<session_context>`,
 * `<hook_context>`) is not the developer's words and is dropped.
 */

const INJECTED = /<(session_context|hook_context)>[\s\S]*?<\/\1>/g;

function userEvents(content: unknown, at?: string): TranscriptEvent[] {
  const parts = typeof content === 'string' ? [{ text: content }] : Array.isArray(content) ? content : [];
  const cleaned = parts
    .filter(isObject)
    .map((p) => (typeof p.text === 'string' ? { ...p, text: p.text.replace(INJECTED, '').trim() } : p))
    .filter((p) => typeof p.text !== 'string' || p.text !== '');
  return eventsOfParts(cleaned, 'user', at);
}

function modelEvents(obj: Json, at?: string): TranscriptEvent[] {
  const out: TranscriptEvent[] = [];
  const text =
    typeof obj.content === 'string' ? obj.content.trim() : eventsOfParts(obj.content, 'model', at).length;
  if (typeof text === 'string' && text) out.push({ kind: 'assistant', text, at });
  if (!Array.isArray(obj.toolCalls)) return out;
  for (const call of obj.toolCalls) {
    if (!isObject(call) || typeof call.name !== 'string' || !call.name) continue;
    const id = typeof call.id === 'string' ? call.id : '';
    out.push(toolUseEvent(call.name, id, isObject(call.args) ? call.args : {}, at));
    const results = Array.isArray(call.result) ? call.result : [];
    for (const r of results) {
      if (!isObject(r) || !isObject(r.functionResponse)) continue;
      const { text: out2, isError } = responseText(r.functionResponse.response);
      out.push(toolResultEvent(id, out2, isError || call.status === 'error', at));
    }
  }
  return out;
}

/** One message record into zero or more events. Exported for tests. */
function eventsOfGeminiRecord(obj: Json): TranscriptEvent[] {
  const at = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  if (obj.type === 'user') {
    // tool results come back as user records too; they are already read from the model's toolCalls
    const parts = Array.isArray(obj.content) ? obj.content : [];
    if (parts.length > 0 && parts.every((p) => isObject(p) && isObject(p.functionResponse))) return [];
    return userEvents(obj.content, at);
  }
  if (obj.type === 'gemini') return modelEvents(obj, at);
  return [];
}

export function parseGeminiChatText(text: string): Omit<TranscriptRead, 'endOffset'> {
  const byId = new Map<string, Json>();
  const order: (string | Json)[] = [];
  const { objects, garbage } = jsonObjectLines(text);
  for (const obj of objects) {
    if (obj.type !== 'user' && obj.type !== 'gemini') continue; // header, $set patches, info records
    if (typeof obj.id === 'string' && obj.id) {
      if (!byId.has(obj.id)) order.push(obj.id);
      byId.set(obj.id, obj);
    } else order.push(obj);
  }
  const events: TranscriptEvent[] = [];
  for (const o of order) {
    const rec = typeof o === 'string' ? byId.get(o) : o;
    if (rec) events.push(...eventsOfGeminiRecord(rec));
  }
  return { events, garbage, sidechain: 0 };
}

export const geminiChatReader: TranscriptReader = transcriptReader(parseGeminiChatText);
