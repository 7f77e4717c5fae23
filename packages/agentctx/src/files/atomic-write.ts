import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { nonRegularKind, notRegular } from './regular-file.js';

/**
 * Write a file so that readers see either the old or the new content, never a torn one. What
 * is at `path` must be a regular file or nothing: a directory, a FIFO or a device is refused,
 * never replaced.
 */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
  const kind = nonRegularKind(path);
  if (kind) throw notRegular(path, kind);
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  try {
    try {
      writeFileSync(tmp, content, { mode });
    } catch (err) {
      // the folder is created on demand: the hooks write here on every prompt
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      writeFileSync(tmp, content, { mode });
    }
    renameSync(tmp, path);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
