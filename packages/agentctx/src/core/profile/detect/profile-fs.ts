import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** File access for detection; the default reads the disk, tests may pass a map. */
export interface ProfileFs {
  read(rel: string): string | null;
  exists(rel: string): boolean;
  list(rel: string): string[];
}

const MAX_FILE = 512 * 1024;

export function diskFs(root: string): ProfileFs {
  return {
    read(rel) {
      try {
        const p = join(root, rel);
        const st = statSync(p); // a FIFO would block readFileSync: regular files only
        if (!st.isFile() || st.size > MAX_FILE) return null;
        return readFileSync(p, 'utf8');
      } catch {
        return null;
      }
    },
    exists: (rel) => existsSync(join(root, rel)),
    list(rel) {
      try {
        return readdirSync(join(root, rel));
      } catch {
        return [];
      }
    },
  };
}
