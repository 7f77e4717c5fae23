import { type BigIntStats, closeSync, fstatSync, openSync, readdirSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { readRange } from '../files/regular-file.js';
import { type JournalEntry, parseJournal } from '../files/session-journal.js';
import { LOCK_PAUSE_MS, sleepSync } from '../shared/sleep.js';
import type { Db } from './open.js';
import { foldIntoSession, type SessionDelta } from './sessions-repo.js';
import { addShown } from './usage-repo.js';

/**
 * Folding the session journals (files/session-journal.ts) into the `sessions` table. Each
 * fold runs in one write transaction that adds the new lines and moves the file's folded
 * offset (`session_journal.folded_bytes`) past them, so folding twice, or two processes folding
 * at once, never counts a line twice, and a fold that fails changes nothing. The offset is
 * kept with the file's identity (inode and birth time): a file deleted and written anew is
 * read from its start.
 */

export interface FoldResult {
  files: number;
  lines: number;
  tokens: number;
  /** Journal files removed (fully folded and untouched for the retention period). */
  removed: number;
}

interface FoldOptions {
  now: Date;
  /**
   * Remove files folded to their end and not written since this time. The sessions table then
   * holds everything they said; a session resumed later starts a new file.
   */
  removeUntouchedBefore?: Date;
}

const empty = (): FoldResult => ({ files: 0, lines: 0, tokens: 0, removed: 0 });

function isIso(v: string): boolean {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d/.test(v);
}

/** The lines of one fold, per session: tokens added, first sighting, project, last cwd. */
function deltas(entries: JournalEntry[], now: Date): SessionDelta[] {
  const by = new Map<string, SessionDelta>();
  for (const e of entries) {
    let d = by.get(e.sessionId);
    if (!d) {
      d = {
        sessionId: e.sessionId,
        projectId: null,
        startedAt: isIso(e.at) ? e.at : now.toISOString(),
        tokens: 0,
        cwd: null,
        endedAt: null,
      };
      by.set(e.sessionId, d);
    }
    if (e.kind === 'tokens') {
      d.tokens += e.tokens;
      d.projectId ??= e.projectId;
    } else if (e.kind === 'end') {
      d.projectId ??= e.projectId;
      if (d.endedAt === null || e.at > d.endedAt) d.endedAt = e.at;
    } else d.cwd = e.cwd;
  }
  return [...by.values()];
}

/** Which file this is: its inode, and its birth time where the file system keeps one. */
function fileId(st: BigIntStats): string {
  return `${st.ino}:${st.birthtimeNs}`;
}

/** Fold one file; the caller holds the write transaction. */
function foldFile(db: Db, dir: string, name: string, opts: FoldOptions, out: FoldResult): void {
  const path = join(dir, name);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return; // no journal (yet), or removed meanwhile
  }
  try {
    const st = fstatSync(fd, { bigint: true });
    const id = fileId(st);
    const size = Number(st.size);
    const row = db.prepare('SELECT file_id, folded_bytes FROM session_journal WHERE file = ?').get(name) as
      | { file_id: string; folded_bytes: number }
      | undefined;
    let folded = row && row.file_id === id && row.folded_bytes <= size ? row.folded_bytes : 0;
    out.files++;
    if (size > folded) {
      const buf = readRange(fd, folded, size);
      const end = buf.lastIndexOf(0x0a); // whole lines only: a line being written waits
      if (end >= 0) {
        const entries = parseJournal(buf.subarray(0, end + 1).toString('utf8'));
        for (const d of deltas(entries, opts.now)) {
          foldIntoSession(db, d);
          out.tokens += d.tokens;
        }
        // which records each injection showed: the usage judge (core/usage) reads them
        for (const e of entries) {
          if (e.kind !== 'tokens' || !e.ids || e.ids.length === 0) continue;
          const at = isIso(e.at) ? e.at : opts.now.toISOString();
          addShown(db, e.sessionId, e.ids, e.via ?? 'prompt', e.tokens / e.ids.length, at);
        }
        out.lines += entries.length;
        folded += end + 1;
      }
    }
    if (!row || row.file_id !== id || row.folded_bytes !== folded) {
      db.prepare(
        `INSERT INTO session_journal (file, file_id, folded_bytes, updated_at) VALUES (?, ?, ?, ?)
         ON CONFLICT(file) DO UPDATE SET file_id = excluded.file_id, folded_bytes = excluded.folded_bytes,
           updated_at = excluded.updated_at`,
      ).run(name, id, folded, opts.now.toISOString());
    }
    const before = opts.removeUntouchedBefore?.getTime();
    if (before !== undefined && folded === size && Number(st.mtimeMs) < before) {
      // A hook appending in the microseconds between the read above and this unlink would
      // lose its line; files are removed only after days without a write.
      unlinkSync(path);
      db.prepare('DELETE FROM session_journal WHERE file = ?').run(name);
      out.removed++;
    }
  } finally {
    closeSync(fd);
  }
}

/** Whether `name` has bytes not folded yet (a read, no lock): spares Stop a write transaction. */
export function journalBehind(db: Db, dir: string, name: string): boolean {
  let st: BigIntStats;
  try {
    st = statSync(join(dir, name), { bigint: true });
  } catch {
    return false;
  }
  return behindOf(db, name, st);
}

/** Whether the file `name`, as `st` describes it, has bytes not folded yet. */
function behindOf(db: Db, name: string, st: BigIntStats): boolean {
  const row = db.prepare('SELECT file_id, folded_bytes FROM session_journal WHERE file = ?').get(name) as
    | { file_id: string; folded_bytes: number }
    | undefined;
  return !row || row.file_id !== fileId(st) || row.folded_bytes !== Number(st.size);
}

/** Fold the journal file `name` (a session's, see app/paths.ts) in one write transaction. */
export function foldJournalFile(db: Db, dir: string, name: string, opts: FoldOptions): FoldResult {
  const out = empty();
  db.transaction(() => foldFile(db, dir, name, opts, out)).immediate();
  return out;
}

/** What `foldAllJournals` must do with one file, read without a lock. */
function pendingWork(
  db: Db,
  dir: string,
  name: string,
  removeBefore: number | undefined,
): 'gone' | 'none' | 'fold' {
  let st: BigIntStats;
  try {
    st = statSync(join(dir, name), { bigint: true });
  } catch {
    return 'gone';
  }
  if (behindOf(db, name, st)) return 'fold';
  return removeBefore !== undefined && Number(st.mtimeMs) < removeBefore ? 'fold' : 'none';
}

/**
 * Fold every journal in `dir` (consolidation, status, dashboard): each file with something new
 * (or old enough to remove) in its own write transaction, LOCK_PAUSE_MS between two, and none for
 * the others. Files are independent, so nothing needs them in one transaction: folding eight
 * running sessions' journals at once held the write lock ~230 ms at 100,000 records (issue 20).
 */
export function foldAllJournals(
  db: Db,
  dir: string,
  opts: FoldOptions & { pauseMs?: number; sleep?: (ms: number) => void },
): FoldResult {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.jsonl'));
  } catch {
    return empty(); // no journal folder yet
  }
  const out = empty();
  const removeBefore = opts.removeUntouchedBefore?.getTime();
  let writes = 0;
  for (const name of names.sort()) {
    const work = pendingWork(db, dir, name, removeBefore);
    if (work === 'none') out.files++;
    if (work !== 'fold') continue;
    if (writes++ > 0) (opts.sleep ?? sleepSync)(opts.pauseMs ?? LOCK_PAUSE_MS);
    db.transaction(() => foldFile(db, dir, name, opts, out)).immediate();
  }
  return out;
}
