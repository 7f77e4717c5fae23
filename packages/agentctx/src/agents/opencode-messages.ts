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
 * OpenCode sessions as agentctx's plugin writes them at each `session.idle`: one message a line,
 * `{info: {id, role, time: {created}}, parts: [...]}`, the shape OpenCode's API gives; or the
 * file `opencode export <session id>` prints (the same messages in one document), for
 * `agentctx extract --agent opencode --transcript export.json`. Text parts the plugin or OpenCode added (`synthetic`) are not the
 * developer's words; tool parts carry the call and, once done, its output or error.
 */

const iso = (ms: unknown) =>
  typeof ms === 'number' && Number.isFinite(ms) ? new Date(ms).toISOString() : undefined;

function toolEvents(p: Json, at: string | undefined): TranscriptEvent[] {
  const tool = typeof p.tool === 'string' ? p.tool : '';
  if (!tool) return [];
  const id = typeof p.callID === 'string' ? p.callID : '';
  const state = isObject(p.state) ? p.state : {};
  const input = isObject(state.input) ? state.input : {};
  const file = input.filePath ?? input.file_path;
  let use: TranscriptEvent;
  if (tool === 'bash') {
    const cmd = typeof input.command === 'string' ? input.command : '';
    use = { kind: 'tool_use', id, name: 'Bash', summary: oneLine(cmd, 300), files: [], at };
  } else if ((tool === 'edit' || tool === 'write' || tool === 'patch') && typeof file === 'string' && file) {
    use = {
      kind: 'tool_use',
      id,
      name: tool === 'write' ? 'Write' : 'Edit',
      summary: oneLine(file),
      files: [file],
      at,
    };
  } else use = { kind: 'tool_use', id, name: tool, summary: summariseToolInput(tool, input), files: [], at };
  if (state.status === 'completed' || state.status === 'error') {
    const failed = state.status === 'error';
    const meta = isObject(state.metadata) ? state.metadata : {};
    const text = failed ? String(state.error ?? '') : typeof state.output === 'string' ? state.output : '';
    const exit = typeof meta.exit === 'number' ? meta.exit : 0;
    return [use, toolResultEvent(id, text, failed || exit !== 0, at)];
  }
  return [use];
}

/** One message line into zero or more events. Exported for tests. */
function eventsOfOpencodeMessage(obj: Json): TranscriptEvent[] {
  const info = isObject(obj.info) ? obj.info : undefined;
  if (!info || !Array.isArray(obj.parts)) return [];
  const at = iso(isObject(info.time) ? info.time.created : undefined);
  const out: TranscriptEvent[] = [];
  const texts: string[] = [];
  for (const p of obj.parts) {
    if (!isObject(p)) continue;
    if (p.type === 'text' && typeof p.text === 'string' && p.synthetic !== true && p.ignored !== true)
      texts.push(p.text);
    else if (p.type === 'tool' && info.role === 'assistant') out.push(...toolEvents(p, at));
  }
  const text = texts.join('\n').trim();
  if (text && info.role === 'user') out.unshift({ kind: 'user', text, at });
  else if (text && info.role === 'assistant') out.unshift({ kind: 'assistant', text, at });
  return out;
}

/** `opencode export <id>`: one JSON document `{info, messages: [{info, parts}]}`, or null. */
function exportDocument(text: string): Json[] | null {
  if (!/^\s*\{\s*\n/.test(text)) return null;
  try {
    const v = JSON.parse(text) as unknown;
    return isObject(v) && Array.isArray(v.messages) ? v.messages.filter(isObject) : null;
  } catch {
    return null;
  }
}

export function parseOpencodeText(text: string): Omit<TranscriptRead, 'endOffset'> {
  const exported = exportDocument(text);
  if (exported) return { events: exported.flatMap(eventsOfOpencodeMessage), garbage: 0, sidechain: 0 };
  return parseJsonLines(text, eventsOfOpencodeMessage);
}

export const opencodeMessagesReader: TranscriptReader = transcriptReader(parseOpencodeText);
