import { closeSync, fstatSync, readSync } from 'node:fs';
import { openRegularForRead } from '../files/regular-file.js';
import { blockText, EDIT_TOOLS, isObject, type Json } from './transcript-json.js';

/**
 * Claude Code session transcripts (`~/.claude/projects/<dir>/<session>.jsonl`): one JSON object
 * a line. This reads them into a small list of events — what the developer typed, what the
 * assistant said, which tools ran and how they ended, compaction summaries — and ignores the
 * rest (attachments, request snapshots, queue operations, sidechains). Garbage lines are
 * counted and skipped; a last line without its newline is left for the next read.
 */

export type TranscriptEvent =
  | { kind: 'user'; text: string; at?: string }
  | { kind: 'assistant'; text: string; at?: string }
  | { kind: 'tool_use'; id: string; name: string; summary: string; files: string[]; at?: string }
  | { kind: 'tool_result'; toolUseId: string; summary: string; isError: boolean; at?: string }
  | { kind: 'compact_summary'; text: string; at?: string };

export interface TranscriptRead {
  events: TranscriptEvent[];
  /** Byte offset just past the last complete line read: where the next read starts. */
  endOffset: number;
  /** Lines that were not JSON objects. */
  garbage: number;
  /** Sidechain (subagent) lines skipped. */
  sidechain: number;
}

const SUMMARY_CHARS = 240;
const FILE_KEYS = ['file_path', 'notebook_path', 'path'];

/**
 * `text` cut to at most `max` characters, ending in "…". A word (a run of non-space
 * characters) that the cut would split is dropped whole: redaction runs on the cut text, and
 * a secret's fragment can be too short for its pattern to recognise.
 */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  let head = text.slice(0, Math.max(0, max - 1));
  if (!/\s/.test(text.charAt(head.length))) head = head.replace(/\S*$/, '');
  return `${head.trimEnd()}…`;
}

/** One line, whitespace squeezed, cut to `max` characters (at a word boundary). */
export function oneLine(text: string, max = SUMMARY_CHARS): string {
  return cutAtWord(text.replace(/\s+/g, ' ').trim(), max);
}

/** Context Claude Code (or a hook) attached to a prompt: not something the developer typed. */
function stripInjected(text: string): string {
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '')
    .replace(/<local-command-(stdout|stderr|caveat)>[\s\S]*?<\/local-command-\1>/g, '')
    .trim();
}

function filesOf(name: string, input: Json): string[] {
  if (!EDIT_TOOLS.has(name)) return [];
  for (const key of FILE_KEYS) {
    const v = input[key];
    if (typeof v === 'string' && v) return [v];
  }
  return [];
}

/** What a tool call did, in one short line: the command, the file, the pattern. */
export function summariseToolInput(name: string, input: unknown): string {
  if (!isObject(input)) return '';
  for (const key of ['command', ...FILE_KEYS, 'pattern', 'url', 'query', 'description', 'prompt']) {
    const v = input[key];
    if (typeof v === 'string' && v.trim()) return oneLine(v, key === 'command' ? 300 : SUMMARY_CHARS);
  }
  return oneLine(JSON.stringify(input), 120);
}

function toolResultSummary(block: Json, extra: unknown): { summary: string; isError: boolean } {
  let isError = block.is_error === true;
  let text = blockText(block.content);
  if (isObject(extra)) {
    // Bash results carry stdout/stderr and an exit code in toolUseResult
    if (typeof extra.stderr === 'string' && extra.stderr.trim() && !text.trim()) text = extra.stderr;
    if (extra.interrupted === true) isError = true;
  }
  const lines = text.split('\n').filter((l) => l.trim());
  const first = lines[0] ?? '';
  // Failing test runs put the useful line last ("Tests: 2 failed"); keep both ends.
  const last = lines.length > 1 ? lines[lines.length - 1]! : '';
  const summary = last ? `${oneLine(first, 160)} … ${oneLine(last, 160)}` : oneLine(first);
  return { summary: summary || '(no output)', isError };
}

/** Parse one transcript line into zero or more events. */
function eventsOfLine(obj: Json): TranscriptEvent[] {
  const at = typeof obj.timestamp === 'string' ? obj.timestamp : undefined;
  const msg = isObject(obj.message) ? obj.message : undefined;
  if (!msg) return [];
  if (obj.type === 'user') {
    if (obj.isCompactSummary === true) {
      const text = blockText(msg.content).trim();
      return text ? [{ kind: 'compact_summary', text, at }] : [];
    }
    if (obj.isMeta === true) return [];
    if (typeof msg.content === 'string') {
      const text = stripInjected(msg.content);
      if (!text || /^<command-(name|message|args)>/.test(text)) return [];
      return [{ kind: 'user', text, at }];
    }
    if (!Array.isArray(msg.content)) return [];
    const out: TranscriptEvent[] = [];
    const typed: string[] = [];
    for (const block of msg.content) {
      if (!isObject(block)) continue;
      if (block.type === 'tool_result') {
        const { summary, isError } = toolResultSummary(block, obj.toolUseResult);
        out.push({
          kind: 'tool_result',
          toolUseId: typeof block.tool_use_id === 'string' ? block.tool_use_id : '',
          summary,
          isError,
          at,
        });
      } else if (block.type === 'text' && typeof block.text === 'string') {
        const text = stripInjected(block.text);
        if (text) typed.push(text);
      }
    }
    if (typed.length > 0) out.unshift({ kind: 'user', text: typed.join('\n'), at });
    return out;
  }
  if (obj.type === 'assistant' && Array.isArray(msg.content)) {
    const out: TranscriptEvent[] = [];
    for (const block of msg.content) {
      if (!isObject(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string' && block.text.trim()) {
        out.push({ kind: 'assistant', text: block.text.trim(), at });
      } else if (block.type === 'tool_use' && typeof block.name === 'string') {
        const input = isObject(block.input) ? block.input : {};
        out.push({
          kind: 'tool_use',
          id: typeof block.id === 'string' ? block.id : '',
          name: block.name,
          summary: summariseToolInput(block.name, input),
          files: filesOf(block.name, input),
          at,
        });
      }
      // thinking blocks are the model's scratchpad, not a statement: skipped
    }
    return out;
  }
  return [];
}

/**
 * The JSON objects of JSON-lines text, in order, and how many non-blank lines were not one: the
 * shape every agent's transcript file has (Claude Code's, Codex's rollouts, Qwen's and Gemini's
 * chats, OpenCode's messages as agentctx writes them).
 */
export function jsonObjectLines(text: string): { objects: Json[]; garbage: number } {
  const objects: Json[] = [];
  let garbage = 0;
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      garbage++;
      continue;
    }
    if (isObject(obj)) objects.push(obj);
    else garbage++;
  }
  return { objects, garbage };
}

/** A transcript whose events come line by line: each object's events, in order. */
export function parseJsonLines(
  text: string,
  eventsOf: (obj: Json) => TranscriptEvent[],
): Omit<TranscriptRead, 'endOffset'> {
  const { objects, garbage } = jsonObjectLines(text);
  return { events: objects.flatMap(eventsOf), garbage, sidechain: 0 };
}

/** The reader of one agent's transcript files, given how their text becomes events. */
export function transcriptReader(
  parse: (text: string) => Omit<TranscriptRead, 'endOffset'>,
): TranscriptReader {
  return {
    read: (path, offset = 0) => readTranscript(path, offset, parse),
    firstTimestamp: (path) => firstTimestamp(path),
  };
}

/** Parse Claude Code transcript text (whole lines); a subagent's sidechain lines are counted, not read. */
function parseTranscriptText(text: string): Omit<TranscriptRead, 'endOffset'> {
  const { objects, garbage } = jsonObjectLines(text);
  const main = objects.filter((o) => o.isSidechain !== true);
  return { events: main.flatMap(eventsOfLine), garbage, sidechain: objects.length - main.length };
}

/** How one agent's session transcripts are read into the neutral event list extraction takes. */
export interface TranscriptReader {
  read(path: string, offset?: number): TranscriptRead;
  firstTimestamp(path: string): string | null;
}

/**
 * Read the transcript from byte `offset` to the last complete line (lines parsed by `parse`:
 * Claude Code's by default; another agent's reader passes its own). An offset past the end of
 * the file (the file was replaced) restarts from 0. Anything but a regular file is refused
 * (a FIFO would block the process in open()).
 */
export function readTranscript(
  path: string,
  offset = 0,
  parse: (text: string) => Omit<TranscriptRead, 'endOffset'> = parseTranscriptText,
): TranscriptRead {
  const fd = openRegularForRead(path);
  try {
    const size = fstatSync(fd).size;
    const start = offset > size ? 0 : Math.max(0, offset);
    const length = size - start;
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    const lastNl = buf.lastIndexOf(0x0a, got - 1);
    const complete = lastNl === -1 ? 0 : lastNl + 1;
    const parsed = parse(buf.subarray(0, complete).toString('utf8'));
    return { ...parsed, endOffset: start + complete };
  } finally {
    closeSync(fd);
  }
}

/** Files the session edited or wrote, most recent last, without repeats. */
export function filesTouched(events: readonly TranscriptEvent[]): string[] {
  const seen = new Map<string, number>();
  let i = 0;
  for (const e of events) if (e.kind === 'tool_use') for (const f of e.files) seen.set(f, i++);
  return [...seen.entries()].sort((a, b) => a[1] - b[1]).map(([f]) => f);
}

/** The timestamp of the first line that has one (when the session began), from the file's head. */
function firstTimestamp(path: string, maxBytes = 256 * 1024): string | null {
  const fd = openRegularForRead(path);
  try {
    const buf = Buffer.alloc(Math.min(maxBytes, fstatSync(fd).size));
    const n = readSync(fd, buf, 0, buf.length, 0);
    for (const line of buf.subarray(0, n).toString('utf8').split('\n')) {
      const m = /"timestamp"\s*:\s*"([^"]+)"/.exec(line);
      if (m) return m[1]!;
    }
    return null;
  } finally {
    closeSync(fd);
  }
}

/** Claude Code's transcripts. */
export const claudeTranscriptReader: TranscriptReader = {
  read: (path, offset = 0) => readTranscript(path, offset),
  firstTimestamp: (path) => firstTimestamp(path),
};
