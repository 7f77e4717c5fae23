import { oneLine, summariseToolInput, type TranscriptEvent } from '../claude/transcript.js';
import { isObject, type Json } from '../claude/transcript-json.js';

/**
 * Gemini-style content parts (`{text}`, `{functionCall}`, `{functionResponse}`), which Qwen
 * Code's chat records carry, into the neutral transcript events: tools in the engine's
 * vocabulary (the shell as Bash, file writes as Write and Edit) so the rule-built handover and
 * the files-touched list read them as they read Claude Code's.
 */

const SHELL = new Set(['run_shell_command', 'shell']);
const WRITES: Record<string, string> = { write_file: 'Write', replace: 'Edit', edit: 'Edit' };

/** A call in the engine's terms; `args` is the call's argument object. */
export function toolUseEvent(rawName: string, id: string, args: Json, at?: string): TranscriptEvent {
  if (SHELL.has(rawName)) {
    const cmd = typeof args.command === 'string' ? args.command : '';
    return { kind: 'tool_use', id, name: 'Bash', summary: oneLine(cmd, 300), files: [], at };
  }
  const edit = WRITES[rawName];
  const file = args.file_path ?? args.absolute_path ?? args.path;
  if (edit && typeof file === 'string' && file) {
    return { kind: 'tool_use', id, name: edit, summary: oneLine(file), files: [file], at };
  }
  return { kind: 'tool_use', id, name: rawName, summary: summariseToolInput(rawName, args), files: [], at };
}

/** A tool's output: its first and last non-empty lines; `error` marks a failed call. */
export function toolResultEvent(id: string, text: string, isError: boolean, at?: string): TranscriptEvent {
  const lines = text.split('\n').filter((l) => l.trim());
  const first = lines[0] ?? '';
  const last = lines.length > 1 ? lines[lines.length - 1]! : '';
  const summary = last ? `${oneLine(first, 160)} … ${oneLine(last, 160)}` : oneLine(first);
  return { kind: 'tool_result', toolUseId: id, summary: summary || '(no output)', isError, at };
}

/** A functionResponse's text and whether it reports a failure. */
export function responseText(response: unknown): { text: string; isError: boolean } {
  if (typeof response === 'string') return { text: response, isError: false };
  if (!isObject(response)) return { text: '', isError: false };
  if (typeof response.error === 'string') return { text: response.error, isError: true };
  const out = response.output ?? response.content ?? response.llmContent;
  if (typeof out === 'string') return { text: out, isError: /\bExit Code: [1-9]/.test(out) };
  return { text: JSON.stringify(response).slice(0, 2000), isError: false };
}

/** The events of one message's parts, for a `role` (user or model). */
export function eventsOfParts(parts: unknown, role: 'user' | 'model', at?: string): TranscriptEvent[] {
  if (!Array.isArray(parts)) return [];
  const out: TranscriptEvent[] = [];
  const texts: string[] = [];
  for (const p of parts) {
    if (!isObject(p)) continue;
    if (typeof p.text === 'string' && p.thought !== true) texts.push(p.text);
    else if (isObject(p.functionCall)) {
      const fc = p.functionCall;
      if (typeof fc.name !== 'string' || !fc.name) continue;
      out.push(
        toolUseEvent(fc.name, typeof fc.id === 'string' ? fc.id : '', isObject(fc.args) ? fc.args : {}, at),
      );
    } else if (isObject(p.functionResponse)) {
      const fr = p.functionResponse;
      const { text, isError } = responseText(fr.response);
      out.push(toolResultEvent(typeof fr.id === 'string' ? fr.id : '', text, isError, at));
    }
  }
  const text = texts.join('\n').trim();
  if (text) out.unshift({ kind: role === 'user' ? 'user' : 'assistant', text, at });
  return out;
}
