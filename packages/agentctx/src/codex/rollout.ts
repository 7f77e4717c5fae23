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

/**
 * Codex CLI rollouts (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl`), read
 * into the same neutral event list as Claude Code transcripts, so extraction, the rule-built
 * handover and the model pass need nothing per agent. Each line is
 * `{timestamp, type, payload}`; the conversation is in `response_item` lines (messages by role,
 * function calls and their outputs); `compacted` lines hold a compaction's summary. Codex's
 * own context (environment, instructions, hook context as developer messages) is skipped.
 */

/** User-role texts Codex itself writes (environment, AGENTS.md, skills), not the developer's words. */
const CODEX_CONTEXT =
  /^\s*(?:<environment_context>|<user_instructions>|<skills_instructions>|<turn_aborted>|# AGENTS\.md instructions)/;

function partsText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((p): p is Json => isObject(p) && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** The files a patch adds, updates or moves to. */
function patchFiles(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(/^\*\*\* (?:Add File|Update File|Move to): (.+)$/gm)) {
    const f = m[1]!.trim();
    if (f && !out.includes(f)) out.push(f);
  }
  return out;
}

function parseArgs(raw: unknown): Json {
  if (isObject(raw)) return raw;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return isObject(v) ? v : {};
  } catch {
    return { input: raw };
  }
}

/** A call in the engine's tool vocabulary: the shell as Bash, a patch as an Edit of its files. */
function toolUse(p: Json, at: string | undefined): TranscriptEvent | null {
  const id = typeof p.call_id === 'string' ? p.call_id : '';
  const rawName = typeof p.name === 'string' ? p.name : '';
  if (!rawName) return null;
  const args = parseArgs(p.type === 'custom_tool_call' ? p.input : p.arguments);
  if (rawName === 'exec_command' || rawName === 'shell' || rawName === 'shell_command') {
    const cmd = Array.isArray(args.command) ? args.command.join(' ') : (args.cmd ?? args.command);
    const summary = typeof cmd === 'string' ? oneLine(cmd, 300) : '';
    return { kind: 'tool_use', id, name: 'Bash', summary, files: [], at };
  }
  if (rawName === 'apply_patch') {
    const patch =
      typeof args.input === 'string' ? args.input : typeof args.patch === 'string' ? args.patch : '';
    const files = patchFiles(patch);
    return { kind: 'tool_use', id, name: 'Edit', summary: files[0] ?? 'patch', files, at };
  }
  const name = typeof p.namespace === 'string' && p.namespace ? `${p.namespace}__${rawName}` : rawName;
  return { kind: 'tool_use', id, name, summary: summariseToolInput(name, args), files: [], at };
}

/** A call's output: the exit code Codex reports decides failure; the output's ends are kept. */
function toolResult(p: Json, at: string | undefined): TranscriptEvent {
  const raw = isObject(p.output) ? partsText((p.output as Json).content) : partsText(p.output);
  const exit = /^Process exited with code (\d+)/m.exec(raw);
  const body = raw.includes('\nOutput:\n') ? raw.slice(raw.indexOf('\nOutput:\n') + 9) : raw;
  const lines = body.split('\n').filter((l) => l.trim());
  const first = lines[0] ?? '';
  const last = lines.length > 1 ? lines[lines.length - 1]! : '';
  const summary = last ? `${oneLine(first, 160)} … ${oneLine(last, 160)}` : oneLine(first);
  return {
    kind: 'tool_result',
    toolUseId: typeof p.call_id === 'string' ? p.call_id : '',
    summary: summary || '(no output)',
    isError: exit ? exit[1] !== '0' : false,
    at,
  };
}

/** One rollout line into zero or more events. Exported for tests. */
function eventsOfRolloutLine(obj: Json): TranscriptEvent[] {
  const at = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const p = isObject(obj.payload) ? obj.payload : undefined;
  if (!p) return [];
  if (obj.type === 'compacted') {
    const text = typeof p.message === 'string' ? p.message.trim() : '';
    return text ? [{ kind: 'compact_summary', text, at }] : [];
  }
  if (obj.type !== 'response_item') return [];
  if (p.type === 'message') {
    const text = partsText(p.content).trim();
    if (!text) return [];
    if (p.role === 'user') return CODEX_CONTEXT.test(text) ? [] : [{ kind: 'user', text, at }];
    if (p.role === 'assistant') return [{ kind: 'assistant', text, at }];
    return []; // developer and system messages: Codex's instructions and hook context
  }
  if (p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call') {
    const e = toolUse(p, at);
    return e ? [e] : [];
  }
  if (p.type === 'function_call_output' || p.type === 'custom_tool_call_output') return [toolResult(p, at)];
  return [];
}

/** Parse rollout text (whole lines). */
export function parseRolloutText(text: string): Omit<TranscriptRead, 'endOffset'> {
  return parseJsonLines(text, eventsOfRolloutLine);
}

export const codexRolloutReader: TranscriptReader = transcriptReader(parseRolloutText);
