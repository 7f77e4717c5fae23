import { closeSync, existsSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { scanRegularLinesBackward } from './regular-file.js';

/**
 * The session journal: stored session metadata (CONTRACTS.md §stored-derived) written on the hooks'
 * hot path without the database. One file per session under `<home>/journal/`, one JSON object a
 * line, appended with O_APPEND: a line is one small write(2), so lines from concurrent hooks never
 * interleave and none is lost, and no hook waits for the store's write lock. Stop, SessionEnd,
 * consolidation and the readers of token counts fold the lines into the `sessions` table
 * (database/journal-fold.ts), remembering how many bytes of each file they have folded.
 *
 * Lines: `{"s": session, "p": project, "t": tokens, "at": iso, "r": [ids], "v": via}` (an
 * injection, with the records it showed and how: "digest", "prompt", "subagent"),
 * `{"s": session, "cwd": dir, "at": iso}` (the session's working directory changed) and
 * `{"s": session, "p": project, "end": 1, "at": iso}` (the session ended while the store's write
 * lock was busy: SessionEnd leaves it here rather than wait).
 */
export type InjectionVia = 'digest' | 'prompt' | 'subagent';
const VIAS: ReadonlySet<string> = new Set<InjectionVia>(['digest', 'prompt', 'subagent']);

export type JournalEntry =
  | {
      kind: 'tokens';
      sessionId: string;
      projectId: string;
      tokens: number;
      at: string;
      /** The records the injection showed (absent in lines written before they were kept). */
      ids?: string[];
      via?: InjectionVia;
    }
  | { kind: 'cwd'; sessionId: string; cwd: string; at: string }
  | { kind: 'end'; sessionId: string; projectId: string; at: string };

/** Most record ids one line keeps: more than any injection shows (a digest holds a few dozen). */
const MAX_LINE_IDS = 200;

/** Longest field accepted from a line; anything longer is not ours. */
const MAX_FIELD = 4096;
/** A count no single injection can reach (the budgets are ≤ 2,000): a larger one is garbage. */
const MAX_LINE_TOKENS = 100_000;

function line(e: JournalEntry): string {
  const body =
    e.kind === 'tokens'
      ? {
          s: e.sessionId,
          p: e.projectId,
          t: Math.trunc(e.tokens),
          at: e.at,
          ...(e.ids && e.ids.length > 0 ? { r: e.ids.slice(0, MAX_LINE_IDS), v: e.via ?? 'prompt' } : {}),
        }
      : e.kind === 'end'
        ? { s: e.sessionId, p: e.projectId, end: 1, at: e.at }
        : { s: e.sessionId, cwd: e.cwd, at: e.at };
  return `${JSON.stringify(body)}\n`;
}

function openForAppend(path: string): number {
  try {
    return openSync(path, 'a', 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    return openSync(path, 'a', 0o600);
  }
}

/**
 * Append one entry (creating the folder on first use) in one write(2). Throws when the file
 * cannot be written. open/write/close directly: half the cold cost of appendFileSync.
 */
export function appendJournal(path: string, entry: JournalEntry): void {
  const data = Buffer.from(line(entry), 'utf8');
  const fd = openForAppend(path);
  try {
    // a regular file takes the whole line at once; a short write (a full disk) goes on, and a
    // line left torn is recovered or skipped by the reader
    for (let off = 0; off < data.length; ) {
      const n = writeSync(fd, data, off);
      if (n <= 0) throw new Error(`journal ${path}: nothing written`);
      off += n;
    }
  } finally {
    closeSync(fd);
  }
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.length > 0 && v.length <= MAX_FIELD ? v : null;
}

function toEntry(v: unknown): JournalEntry | null {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return null;
  const o = v as Record<string, unknown>;
  const sessionId = str(o.s);
  const at = str(o.at) ?? '';
  if (!sessionId) return null;
  if (typeof o.t === 'number') {
    const projectId = str(o.p);
    const t = o.t;
    if (!projectId || !Number.isInteger(t) || t <= 0 || t > MAX_LINE_TOKENS) return null;
    const entry: JournalEntry = { kind: 'tokens', sessionId, projectId, tokens: t, at };
    const ids = Array.isArray(o.r)
      ? o.r.filter((x): x is string => typeof x === 'string' && x.length > 0 && x.length < 200)
      : [];
    if (ids.length > 0) {
      entry.ids = [...new Set(ids)].slice(0, MAX_LINE_IDS);
      entry.via = typeof o.v === 'string' && VIAS.has(o.v) ? (o.v as InjectionVia) : 'prompt';
    }
    return entry;
  }
  if (o.end === 1) {
    const projectId = str(o.p);
    return projectId && /^\d{4}-\d\d-\d\dT/.test(at) ? { kind: 'end', sessionId, projectId, at } : null;
  }
  const cwd = str(o.cwd);
  return cwd ? { kind: 'cwd', sessionId, cwd, at } : null;
}

/**
 * One line as an entry, or null. A line torn by a crash mid-write has the next line glued to
 * its end; that next entry is recovered from the last `{"s":` in it.
 */
function parseJournalLine(text: string): JournalEntry | null {
  try {
    const e = toEntry(JSON.parse(text));
    if (e) return e;
  } catch {
    // fall through to the recovery below
  }
  const i = text.lastIndexOf('{"s":');
  if (i <= 0) return null;
  try {
    return toEntry(JSON.parse(text.slice(i)));
  } catch {
    return null;
  }
}

/** The entries of whole lines in `text` (a trailing line without its newline is left out). */
export function parseJournal(text: string): JournalEntry[] {
  const out: JournalEntry[] = [];
  const end = text.lastIndexOf('\n');
  if (end < 0) return out;
  for (const l of text.slice(0, end).split('\n')) {
    if (!l) continue;
    const e = parseJournalLine(l);
    if (e) out.push(e);
  }
  return out;
}

/**
 * The most of a journal `journalCwd` reads, from its end: a written line is at most about 60 KB
 * and most are ~200 bytes, so 16 MiB is tens of thousands of lines, far more than a session
 * writes. The journal is read on every hook: it is never held whole.
 */
const CWD_SCAN_MAX_BYTES = 16 * 1024 * 1024;
/** Longer lines are not ones appendJournal wrote (nor one torn line glued to the next). */
const MAX_LINE_BYTES = 256 * 1024;

/** The session's last working directory in its journal, or null (no file, or no change). */
export function journalCwd(path: string, sessionId: string): string | null {
  let found: string | null = null;
  try {
    if (!existsSync(path)) return null; // most sessions before their first injection: no throw
    // from the end: the last change wins, and most sessions have none to find
    scanRegularLinesBackward(
      path,
      (text) => {
        if (!text.includes('"cwd":')) return false;
        const e = parseJournalLine(text);
        if (e?.kind !== 'cwd' || e.sessionId !== sessionId) return false;
        found = e.cwd;
        return true;
      },
      CWD_SCAN_MAX_BYTES,
      MAX_LINE_BYTES,
    );
  } catch {
    return null; // unreadable, or not a regular file (a FIFO is refused, never waited on)
  }
  return found;
}
