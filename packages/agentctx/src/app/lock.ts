import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

export interface Lock {
  release: () => void;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Take `<locksDir>/<name>.lock` if nobody holds it. A lock whose process is gone, or that is
 * older than `staleMs`, is taken over. Returns null when the lock is held.
 */
export function tryLock(locksDir: string, name: string, staleMs = 10 * 60_000): Lock | null {
  mkdirSync(locksDir, { recursive: true, mode: 0o700 });
  const file = join(locksDir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx', 0o600);
      writeSync(fd, JSON.stringify({ pid: process.pid, at: Date.now() }));
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
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') return null;
      let stale = true;
      try {
        const held = JSON.parse(readFileSync(file, 'utf8')) as { pid?: number; at?: number };
        stale = !held.pid || !alive(held.pid) || Date.now() - (held.at ?? 0) > staleMs;
      } catch {
        stale = true;
      }
      if (!stale) return null;
      rmSync(file, { force: true });
    }
  }
  return null;
}
