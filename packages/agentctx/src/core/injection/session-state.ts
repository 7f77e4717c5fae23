import { appendFileSync } from 'node:fs';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { nonRegularKind, notRegular, readRegularTail } from '../../files/regular-file.js';

/**
 * The per-session dedup file (CONTRACTS.md §dedup, derived and disposable): which record ids this
 * session has already been shown, nothing else. A missing or corrupt file reads as an empty state:
 * the worst case is a re-injection. What must not be lost (injected tokens, the working
 * directory) goes to the session journal (files/session-journal.ts).
 *
 * The file is a snapshot followed by appended lines, each one JSON object:
 *   {"injected":[…],"updatedAt":"…"}   the set as a whole (written atomically: a new session,
 *                                      a reset, or a compaction past MAX_IDS)
 *   \n{"add":[…],"updatedAt":"…"}      ids added by one hook (one O_APPEND write)
 * A prompt appends its few new ids instead of rewriting the whole set, so a long session's
 * hook does not get slower as the set grows. Every append starts with a newline: a line torn by
 * a crash is skipped alone and never swallows the next one. Two hooks of one session appending
 * at once both keep their ids (the old format — the snapshot line alone — reads as before).
 */
export interface SessionState {
  /** Record ids already injected into this session's context, in injection order. */
  injected: string[];
  updatedAt?: string;
}

/** Ids kept per session: far more than any session injects, small enough to stay cheap. */
const MAX_IDS = 5000;

/**
 * The most of the file a hook reads: its last 1 MiB (MAX_IDS ids of a snapshot and the appends
 * after it take ~200 KB). The file sits in the shared temp folder, where anything may be put in
 * its place; a bigger one is cut from the front (a later snapshot overrides what came before).
 */
const READ_MAX_BYTES = 1024 * 1024;

function emptySessionState(): SessionState {
  return { injected: [] };
}

const validId = (x: unknown): x is string => typeof x === 'string' && x.length > 0 && x.length < 200;

/** Read the state; anything unreadable is an empty state (a torn or foreign line: skipped). Never throws. */
export function readSessionState(path: string): SessionState {
  let raw: string;
  try {
    // a FIFO, device or folder in its place is refused, never waited on
    raw = readRegularTail(path, READ_MAX_BYTES);
  } catch {
    return emptySessionState();
  }
  const seen = new Set<string>();
  let injected: string[] = [];
  let updatedAt: string | undefined;
  const add = (ids: unknown): void => {
    if (!Array.isArray(ids)) return;
    for (const id of ids)
      if (validId(id) && !seen.has(id)) {
        seen.add(id);
        injected.push(id);
      }
  };
  for (const line of raw.split('\n')) {
    if (!line) continue;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if ('injected' in o) {
      // a snapshot: the set as a whole from here on
      seen.clear();
      injected = [];
      add(o.injected);
    } else add(o.add);
    if (typeof o.updatedAt === 'string') updatedAt = o.updatedAt;
  }
  if (injected.length > MAX_IDS) injected = injected.slice(-MAX_IDS);
  const state: SessionState = { injected };
  if (updatedAt !== undefined) state.updatedAt = updatedAt;
  return state;
}

interface StateChange {
  /** Ids to add to the dedup set. */
  addIds?: readonly string[];
  /** Start the dedup set over (the context was cleared or compacted) before adding. */
  resetIds?: boolean;
}

/**
 * Apply a change: append the new ids, or write a fresh snapshot atomically (a reset, a file
 * that does not exist yet, a set grown past MAX_IDS). `current` is the state the caller read
 * (the hook reads it once at its start); without it the file is read here. Returns the new
 * state; a failed write is swallowed (the file is disposable).
 */
export function updateSessionState(
  path: string,
  change: StateChange,
  now: Date,
  current: SessionState = readSessionState(path),
): SessionState {
  const ids = change.resetIds ? [] : current.injected;
  const seen = new Set(ids);
  const added: string[] = [];
  for (const id of change.addIds ?? []) {
    if (!seen.has(id)) {
      seen.add(id);
      added.push(id);
    }
  }
  const updatedAt = now.toISOString();
  const injected = ids.concat(added);
  const next: SessionState = { injected: injected.slice(-MAX_IDS), updatedAt };
  try {
    const kind = nonRegularKind(path);
    if (kind) throw notRegular(path, kind);
    if (!change.resetIds && ids.length > 0 && injected.length <= MAX_IDS) {
      if (added.length === 0) return next;
      appendFileSync(path, `\n${JSON.stringify({ add: added, updatedAt })}`, { mode: 0o600 });
    } else {
      writeFileAtomic(path, JSON.stringify(next), 0o600);
    }
  } catch {
    // disposable: losing it means a re-injection, never an error
  }
  return next;
}
