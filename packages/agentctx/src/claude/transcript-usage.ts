import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readRegularTail } from '../files/regular-file.js';
import { jsonObjectLines } from './transcript.js';
import { blockText, EDIT_TOOLS, isObject } from './transcript-json.js';

/**
 * A transcript read for usage evidence (core/usage): what the developer typed, what the
 * assistant wrote, what it did (each tool call's input in full, capped, and the files it
 * edited), and its calls to agentctx's MCP tools with the record ids they asked for and got.
 * Unlike the extraction reader (transcript.ts) nothing is summarised: a record's command or
 * identifier may sit anywhere in an edit.
 */

export type UsageEvent =
  | { kind: 'prompt'; text: string; at: string | null }
  /** A subagent's task (the user text of its own conversation): written by the parent, not the developer. */
  | { kind: 'task'; text: string; at: string | null }
  | { kind: 'said'; text: string; at: string | null }
  | { kind: 'did'; tool: string; text: string; files: string[]; at: string | null }
  | {
      kind: 'mcp';
      tool: 'ctx_search' | 'ctx_get' | 'ctx_related';
      /** ctx_get: the ids asked for. */
      asked: string[];
      /** The ids in the tool's result. */
      returned: string[];
      at: string | null;
    };

/** Characters of one tool input kept: enough for any edit a record bears on. */
const INPUT_CHARS = 20_000;
/** Transcripts read at most this far (from the end, where the session's recent work is). */
const MAX_BYTES = 16 * 1024 * 1024;
const MCP_TOOL = /^mcp__.+__(ctx_search|ctx_get|ctx_related)$/;

/** Every string inside a tool input, joined: commands, paths, edit text, patterns. */
function inputText(v: unknown, out: string[] = [], depth = 0): string[] {
  if (depth > 6) return out;
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) inputText(x, out, depth + 1);
  else if (isObject(v)) for (const x of Object.values(v)) inputText(x, out, depth + 1);
  return out;
}

function stripReminders(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<local-command-(stdout|stderr|caveat)>[\s\S]*?<\/local-command-\1>/g, '')
    .trim();
}

/** The record ids in an MCP result's text: the values of its "id" fields. */
export function idsInResult(text: string): string[] {
  const out = new Set<string>();
  for (const m of text.matchAll(/"id"\s*:\s*"([^"\\]{1,100})"/g)) out.add(m[1]!);
  return [...out];
}

interface Pending {
  tool: 'ctx_search' | 'ctx_get' | 'ctx_related';
  asked: string[];
  at: string | null;
}

/**
 * Which lines a parse reads: the session's own ('main', sidechains skipped), the sidechain
 * lines a parent transcript may hold ('sidechain'), or every line of a subagent's own
 * transcript ('subagent'). In the last two the user text is the subagent's task.
 */
type TranscriptSide = 'main' | 'sidechain' | 'subagent';

/** Parse transcript text into usage events, in order. Garbage lines are skipped. */
export function parseUsageEvents(text: string, side: TranscriptSide = 'main'): UsageEvent[] {
  const events: UsageEvent[] = [];
  const pending = new Map<string, Pending>();
  for (const obj of jsonObjectLines(text).objects) {
    if (!isObject(obj.message)) continue;
    if (side === 'main' && obj.isSidechain === true) continue;
    if (side === 'sidechain' && obj.isSidechain !== true) continue;
    const at = typeof obj.timestamp === 'string' ? obj.timestamp : null;
    const content = obj.message.content;
    if (obj.type === 'user') {
      if (obj.isCompactSummary === true || obj.isMeta === true) continue;
      const typed: string[] = [];
      if (typeof content === 'string') typed.push(stripReminders(content));
      else if (Array.isArray(content)) {
        for (const b of content) {
          if (!isObject(b)) continue;
          if (b.type === 'text' && typeof b.text === 'string') typed.push(stripReminders(b.text));
          if (b.type === 'tool_result' && typeof b.tool_use_id === 'string') {
            const p = pending.get(b.tool_use_id);
            if (!p) continue;
            pending.delete(b.tool_use_id);
            const returned = b.is_error === true ? [] : idsInResult(blockText(b.content));
            events.push({ kind: 'mcp', tool: p.tool, asked: p.asked, returned, at: p.at });
          }
        }
      }
      const t = typed.filter(Boolean).join('\n');
      if (t && !/^<command-(name|message|args)>/.test(t))
        events.push({ kind: side === 'main' ? 'prompt' : 'task', text: t, at });
      continue;
    }
    if (obj.type !== 'assistant' || !Array.isArray(content)) continue;
    for (const b of content) {
      if (!isObject(b)) continue;
      if (b.type === 'text' && typeof b.text === 'string' && b.text.trim()) {
        events.push({ kind: 'said', text: b.text, at });
      } else if (b.type === 'tool_use' && typeof b.name === 'string') {
        const input = isObject(b.input) ? b.input : {};
        const m = MCP_TOOL.exec(b.name);
        if (m) {
          const asked = Array.isArray(input.ids)
            ? input.ids.filter((x): x is string => typeof x === 'string')
            : [];
          if (typeof b.id === 'string') pending.set(b.id, { tool: m[1] as Pending['tool'], asked, at });
          continue; // a search's words are not use of what it finds
        }
        const files: string[] = [];
        if (EDIT_TOOLS.has(b.name)) {
          for (const k of ['file_path', 'notebook_path', 'path']) {
            if (typeof input[k] === 'string' && input[k]) files.push(input[k] as string);
          }
        }
        const joined = inputText(input).join('\n').slice(0, INPUT_CHARS);
        events.push({ kind: 'did', tool: b.name, text: joined, files, at });
      }
    }
  }
  // a call whose result never came (the session ended) still shows what it asked for
  for (const p of pending.values()) events.push({ kind: 'mcp', ...p, returned: [] });
  return events;
}

/** Read a transcript file (its last MAX_BYTES at most) into usage events. */
export function readUsageEvents(path: string, side: TranscriptSide = 'main'): UsageEvent[] {
  return parseUsageEvents(readRegularTail(path, MAX_BYTES), side);
}

/** Most subagent transcripts of one session read (the newest names are not preferred: all alike). */
const MAX_SUBAGENT_FILES = 200;

/**
 * What the session's subagents did, read after the session: the sidechain lines of the parent
 * transcript (where older clients wrote them) and every subagent transcript Claude Code keeps
 * beside it, `<session id>/subagents/agent-<agent id>.jsonl`. A subagent's file does not exist
 * yet when its SubagentStart hook runs; once the subagent ends it does. Unreadable files are
 * skipped; nothing here throws.
 */
export function readSubagentEvents(transcriptPath: string, sessionId: string): UsageEvent[] {
  const events: UsageEvent[] = [];
  try {
    events.push(...readUsageEvents(transcriptPath, 'sidechain'));
  } catch {
    // no parent transcript: the caller reports that
  }
  if (!sessionId || /[\\/]/.test(sessionId) || sessionId === '..' || sessionId === '.') return events;
  const dir = join(dirname(transcriptPath), sessionId, 'subagents');
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => /^agent-[^/\\]+\.jsonl$/.test(n));
  } catch {
    return events; // no subagent ran, or this client keeps none
  }
  for (const name of names.sort().slice(0, MAX_SUBAGENT_FILES)) {
    try {
      events.push(...readUsageEvents(join(dir, name), 'subagent'));
    } catch {
      // a file removed meanwhile, or not a regular file
    }
  }
  return events;
}
