import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { AgentctxError } from '../shared/errors.js';
import { processAlive } from '../storage/process-alive.js';

export interface Lock {
  release: () => void;
}

/** A lock file with no readable holder yet younger than this is being written: it is held. */
const FRESH_MS = 10_000;

const REASONS: Record<string, string> = {
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  ENOTDIR: 'a parent is not a folder',
};

/** The lock could not be taken for a reason other than a live holder. */
function lockError(file: string, err: unknown): AgentctxError {
  const code = (err as NodeJS.ErrnoException)?.code ?? '';
  const reason = REASONS[code] ?? (err as Error)?.message ?? String(err);
  return new AgentctxError('lock_failed', `cannot take the lock ${file}: ${reason}`, {
    path: file,
    errno: code,
  });
}

/** Whether the lock at `file` has a live holder (false: nobody, or a holder long gone). */
function heldByLiveProcess(file: string, staleMs: number): boolean {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' && youngerThan(file, FRESH_MS);
  }
  let held: { pid?: number; at?: number };
  try {
    held = JSON.parse(text) as { pid?: number; at?: number };
  } catch {
    // created but not written yet (its holder is between open and write), or a torn file
    return youngerThan(file, FRESH_MS);
  }
  if (!held.pid || !processAlive(held.pid)) return false;
  return Date.now() - (held.at ?? 0) <= staleMs;
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function youngerThan(file: string, ms: number): boolean {
  try {
    return Date.now() - statSync(file).mtimeMs < ms;
  } catch {
    return false;
  }
}

/**
 * Take `<locksDir>/<name>.lock` if nobody holds it. A lock whose process is gone, or that is
 * older than `staleMs`, is taken over. Returns null only when a live process holds the lock;
 * a lock that cannot be created (a full disk, a read-only home) throws a `lock_failed` error.
 */
export function tryLock(locksDir: string, name: string, staleMs = 10 * 60_000): Lock | null {
  const file = join(locksDir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
  try {
    mkdirSync(locksDir, { recursive: true, mode: 0o700 });
  } catch (err) {
    // a recursive mkdir reports ENOENT for a read-only parent: a plain one names the cause
    let cause = err;
    try {
      mkdirSync(locksDir, { mode: 0o700 });
    } catch (plain) {
      if ((plain as NodeJS.ErrnoException).code !== 'ENOENT') cause = plain;
    }
    if (!isDir(locksDir)) throw lockError(file, cause);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw lockError(file, err);
      if (heldByLiveProcess(file, staleMs)) return null;
      try {
        rmSync(file, { force: true });
      } catch (rmErr) {
        throw lockError(file, rmErr);
      }
      continue;
    }
    try {
      writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
    } catch (err) {
      // an empty lock file would read as "being written" for a while: leave none behind
      closeSync(fd);
      rmSync(file, { force: true });
      throw lockError(file, err);
    }
    closeSync(fd);
    return {
      release: () => {
        try {
          const held = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number };
          if (held.pid === process.pid) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      },
    };
  }
  return null; // taken over twice by others meanwhile: someone holds it now
}
