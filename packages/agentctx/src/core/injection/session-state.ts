import { readFileSync } from 'node:fs';
import { writeFileAtomic } from '../../storage/atomic-write.js';

/**
 * The per-session dedup file (SPEC §4, derived and disposable): which record ids this session
 * has already been shown, nothing else. A missing or corrupt file reads as an empty state: the
 * worst case is a re-injection. What must not be lost (injected tokens, the working
 * directory) goes to the session journal (storage/session-journal.ts).
 */
export interface SessionState {
  /** Record ids already injected into this session's context, in injection order. */
  injected: string[];
  updatedAt?: string;
}

/** Ids kept per session: far more than any session injects, small enough to stay cheap. */
const MAX_IDS = 5000;

export function emptySessionState(): SessionState {
  return { injected: [] };
}

/** Read the state; anything unreadable is an empty state. Never throws. */
export function readSessionState(path: string): SessionState {
  let raw: string;
  try {
    raw = readFileSync(path, 'utf8');
  } catch {
    return emptySessionState();
  }
  try {
    const v = JSON.parse(raw) as unknown;
    if (typeof v !== 'object' || v === null || Array.isArray(v)) return emptySessionState();
    const o = v as Record<string, unknown>;
    const state: SessionState = {
      injected: Array.isArray(o.injected)
        ? o.injected.filter((x): x is string => typeof x === 'string' && x.length > 0 && x.length < 200)
        : [],
    };
    if (typeof o.updatedAt === 'string') state.updatedAt = o.updatedAt;
    return state;
  } catch {
    return emptySessionState();
  }
}

export interface StateChange {
  /** Ids to add to the dedup set. */
  addIds?: readonly string[];
  /** Start the dedup set over (the context was cleared or compacted) before adding. */
  resetIds?: boolean;
}

/**
 * Apply a change and write the file atomically. The file is re-read just before the write
 * so that two hooks of one session racing each other both keep their ids (last rename wins
 * for the rest). Returns the new state; a failed write is swallowed (the file is disposable).
 */
export function updateSessionState(path: string, change: StateChange, now: Date): SessionState {
  const cur = readSessionState(path);
  const ids = change.resetIds ? [] : cur.injected;
  const seen = new Set(ids);
  const injected = [...ids];
  for (const id of change.addIds ?? []) {
    if (!seen.has(id)) {
      seen.add(id);
      injected.push(id);
    }
  }
  const next: SessionState = { injected: injected.slice(-MAX_IDS), updatedAt: now.toISOString() };
  try {
    writeFileAtomic(path, JSON.stringify(next), 0o600);
  } catch {
    // disposable: losing it means a re-injection, never an error
  }
  return next;
}
