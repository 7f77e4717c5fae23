import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { processAlive } from '../../src/files/process-alive.js';

/**
 * How agentctx took a lock before generations, kept as a stand-in for an older version still
 * running across an upgrade: one `<name>.lock`, created exclusively and holding `{pid, at}`;
 * when its holder is gone (or it is older than `staleMs`) it is removed and created anew; the
 * holder removes it on release. A file that does not parse is held while younger than 10 s.
 */
export function olderTryLock(
  locksDir: string,
  name: string,
  staleMs = 10 * 60_000,
): { release: () => void } | null {
  const file = join(locksDir, `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.lock`);
  mkdirSync(locksDir, { recursive: true, mode: 0o700 });
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number;
    try {
      fd = openSync(file, 'wx', 0o600);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      if (olderHeld(file, staleMs)) return null;
      rmSync(file, { force: true });
      continue;
    }
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
  }
  return null;
}

function olderHeld(file: string, staleMs: number): boolean {
  const young = () => {
    try {
      return Date.now() - statSync(file).mtimeMs < 10_000;
    } catch {
      return false;
    }
  };
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ENOENT' && young();
  }
  let held: { pid?: number; at?: number };
  try {
    held = JSON.parse(text) as typeof held;
  } catch {
    return young();
  }
  if (!held.pid || !processAlive(held.pid)) return false;
  return Date.now() - (held.at ?? 0) <= staleMs;
}
