import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Real file-system faults for the reliability tests: a small tmpfs that can be filled to the
 * last byte or remounted read-only. Mounting needs root on Linux (a container often allows it);
 * where it is not possible the caller skips, printing the reason returned here.
 */
export interface SmallFs {
  dir: string;
  /** Write a filler file until the file system refuses (ENOSPC); returns the bytes written. */
  fill: () => number;
  /** Remove the filler file. */
  free: () => void;
  readOnly: () => void;
  readWrite: () => void;
  unmount: () => void;
}

export function mountSmallFs(dir: string, sizeKb: number): SmallFs | string {
  if (process.platform !== 'linux') return `tmpfs needs Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root';
  mkdirSync(dir, { recursive: true });
  const res = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k,mode=0700`, 'tmpfs', dir], {
    encoding: 'utf8',
  });
  if (res.status !== 0) return `mount -t tmpfs failed: ${(res.stderr || res.error?.message || '').trim()}`;
  const filler = join(dir, 'filler.bin');
  return {
    dir,
    fill: () => {
      const fd = openSync(filler, 'a');
      let total = 0;
      try {
        for (const size of [256 * 1024, 4096, 512, 1]) {
          const chunk = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              total += writeSync(fd, chunk);
            } catch (err) {
              if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
              break;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return total;
    },
    free: () => rmSync(filler, { force: true }),
    readOnly: () => remount(dir, 'ro'),
    readWrite: () => remount(dir, 'rw'),
    unmount: () => {
      spawnSync('umount', ['-l', dir]);
    },
  };
}

function remount(dir: string, mode: 'ro' | 'rw'): void {
  const r = spawnSync('mount', ['-o', `remount,${mode}`, dir], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`remount ${mode} failed: ${r.stderr}`);
}
