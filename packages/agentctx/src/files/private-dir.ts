import { chmodSync, mkdirSync, type Stats, statSync } from 'node:fs';

/** Whether a folder with these stats is ours to close: owned by this user and not a shared (sticky) folder. */
function oursToTighten(st: Stats): boolean {
  if (process.platform === 'win32' || !st.isDirectory()) return false;
  if (st.mode & 0o1000) return false; // sticky, like /tmp: shared on purpose
  return typeof process.getuid !== 'function' || st.uid === process.getuid();
}

/**
 * Create a folder readable by its owner only; an existing one open to group or others is
 * tightened to 0700 when it is ours (owned by this user, not sticky). One stat when it is
 * already private: this runs on every store open, hooks included. When it cannot be tightened,
 * `folderPrivacy` tells `status` so it can warn.
 */
export function ensurePrivateDir(dir: string): void {
  let st: Stats;
  try {
    st = statSync(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  if ((st.mode & 0o077) === 0 || !oursToTighten(st)) return;
  try {
    chmodSync(dir, 0o700);
  } catch {
    // best effort: status reports a folder that stays open
  }
}

/** A folder's permission bits (octal, 4 digits) and whether only its owner can enter it. */
export function folderPrivacy(dir: string): { mode: string; private: boolean } | null {
  try {
    const mode = statSync(dir).mode & 0o7777;
    return { mode: mode.toString(8).padStart(4, '0'), private: (mode & 0o077) === 0 };
  } catch {
    return null;
  }
}
