import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../files/process-alive.js';
import { readRegularFile } from '../files/regular-file.js';
import { AgentctxError } from '../shared/errors.js';

interface Lock {
  release: () => void;
}

/** A lock file with no readable holder (torn by a crash or an older version mid-write) yet younger than this counts as held. */
const FRESH_MS = 10_000;

/** A lock file holds one short JSON object. */
const LOCK_MAX_BYTES = 4096;

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
    text = readRegularFile(file, LOCK_MAX_BYTES); // a FIFO put in its place is refused, not waited on
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' && youngerThan(file, FRESH_MS);
  }
  let held: { pid?: number; at?: number; released?: boolean };
  try {
    held = JSON.parse(text) as typeof held;
  } catch {
    // torn: read as held while young, in case a writer is still at it
    return youngerThan(file, FRESH_MS);
  }
  if (held.released || !held.pid || !processAlive(held.pid)) return false;
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

/** `<base>.<n>.lock`: generation n of one lock (digits only, so `a` never reads `a.1`'s files). */
function generations(locksDir: string, base: string): number[] {
  const out: number[] = [];
  for (const f of readdirSync(locksDir)) {
    if (!f.startsWith(`${base}.`) || !f.endsWith('.lock')) continue;
    const n = f.slice(base.length + 1, -'.lock'.length);
    if (/^\d{1,15}$/.test(n)) out.push(Number(n));
  }
  return out;
}

/**
 * Take the lock `name` under `locksDir` if nobody holds it. A lock whose process is gone, or
 * that is older than `staleMs`, is taken over. Returns null only when a live process holds the
 * lock; a lock that cannot be created (a full disk, a read-only home) throws `lock_failed`.
 *
 * Why generations: removing a stale lock file and creating a new one is two steps, and two
 * waiters that both judged it stale could each remove the other's fresh lock and both run. So a
 * lock is never removed to be taken: the holder is whoever created the highest generation
 * `<name>.<n>.lock`, and taking over generation n means creating n+1, which `link` does for
 * exactly one waiter (complete, never half written). The highest generation is never removed
 * (release marks it released), so the highest number only grows, and a slow waiter that created
 * a generation already passed sees a higher one and steps back.
 */
export function tryLock(locksDir: string, name: string, staleMs = 10 * 60_000): Lock | null {
  const base = name.replace(/[^A-Za-z0-9_.-]/g, '_');
  const genFile = (n: number) => join(locksDir, `${base}.${n}.lock`);
  ensureDir(locksDir, genFile(0));
  for (let attempt = 0; attempt < 4; attempt++) {
    const top = Math.max(-1, ...listGenerations(locksDir, base, genFile(0)));
    if (top >= 0 && heldByLiveProcess(genFile(top), staleMs)) return null;
    const mine = genFile(top + 1);
    const token = randomBytes(8).toString('hex');
    if (!createWhole(mine, JSON.stringify({ pid: process.pid, at: Date.now(), token }))) continue;
    const after = listGenerations(locksDir, base, mine);
    if (after.some((n) => n > top + 1)) {
      // created a generation someone had already passed: not ours to hold
      rmSync(mine, { force: true });
      continue;
    }
    for (const n of after) if (n < top + 1) rmSync(genFile(n), { force: true });
    const legacy = join(locksDir, `${base}.lock`);
    let claimed: boolean;
    try {
      claimed = claimLegacy(legacy, token, staleMs);
    } catch (err) {
      release(mine, token);
      throw err;
    }
    if (!claimed) {
      release(mine, token); // an older version holds it: its turn first
      return null;
    }
    return {
      release: () => {
        releaseLegacy(legacy, token);
        release(mine, token);
      },
    };
  }
  return null; // taken over by others meanwhile: someone holds it now
}

/**
 * `<name>.lock` is the lock of agentctx versions before generations, and the only one they
 * know. Across an upgrade an older process can still be running (an MCP server, a detached
 * consolidate, a hook of a session started before), so the holder of a generation holds that
 * file too, written as they write it (`pid`, `at`): an older process sees it held and waits, and
 * one that holds it is waited for. Only the generation's holder touches the file, so among
 * current versions this adds no race; a stale one (its holder dead, or older than `staleMs`) is
 * removed and created anew, which is how the older versions take it over themselves. The names
 * never collide with a generation: no lock name ends in `.<digits>`.
 */
function claimLegacy(file: string, token: string, staleMs: number): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    if (createWhole(file, JSON.stringify({ pid: process.pid, at: Date.now(), token }))) return true;
    if (heldByLiveProcess(file, staleMs)) return false;
    try {
      rmSync(file, { force: true });
    } catch (err) {
      throw lockError(file, err);
    }
  }
  return false;
}

/** Remove the older versions' lock file when it is still the one we wrote. */
function releaseLegacy(file: string, token: string): void {
  try {
    const held = JSON.parse(readRegularFile(file, LOCK_MAX_BYTES)) as { token?: string };
    if (held.token === token) rmSync(file, { force: true });
  } catch {
    // gone already
  }
}

function ensureDir(locksDir: string, file: string): void {
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
}

function listGenerations(locksDir: string, base: string, file: string): number[] {
  try {
    return generations(locksDir, base);
  } catch (err) {
    throw lockError(file, err);
  }
}

/** Create `file` holding `text`, written aside and linked in; false when it already exists. */
function createWhole(file: string, text: string): boolean {
  const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    writeFileSync(aside, text, { flag: 'wx', mode: 0o600 });
    linkSync(aside, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw lockError(file, err);
  } finally {
    rmSync(aside, { force: true });
  }
}

/** Mark our generation released (replaced whole), unless it is no longer ours. */
function release(file: string, token: string): void {
  try {
    const held = JSON.parse(readRegularFile(file, LOCK_MAX_BYTES)) as { token?: string };
    if (held.token !== token) return;
    const aside = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
    writeFileSync(aside, JSON.stringify({ released: true, at: Date.now() }), { mode: 0o600 });
    renameSync(aside, file);
  } catch {
    // already taken over, or the disk refuses: a dead holder's lock is taken over anyway
  }
}
