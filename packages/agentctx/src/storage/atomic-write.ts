import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Write a file so that readers see either the old or the new content, never a torn one. */
export function writeFileAtomic(path: string, content: string, mode = 0o600): void {
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
