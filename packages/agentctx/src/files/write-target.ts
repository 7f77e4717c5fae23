import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { AgentctxError } from '../shared/errors.js';
import { writeFileAtomic } from './atomic-write.js';
import { fileKind, notRegular } from './regular-file.js';

/**
 * Write `content` to a path a user named as an output (`export --out`). A regular file, new or
 * existing, is replaced atomically. A character device (/dev/null, /dev/stdout, a terminal) is
 * written in place: replacing it with a regular file would break it for everyone (as root, for
 * the whole system). A missing parent folder is an error, never created. Anything else (a directory, a FIFO, a socket, a block device) is refused
 * and left as it was. The target is opened non-blocking, so a FIFO never hangs the process.
 */
export function writeOutputFile(path: string, content: string, mode = 0o644): 'replaced' | 'in_place' {
  let fd: number;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // a folder the user named that is not there is a typo, not a request to create it
      requireFolder(dirname(path));
      writeFileAtomic(path, content, mode);
      return 'replaced';
    }
    if (code === 'ENOTDIR') requireFolder(dirname(path)); // a file where the folder should be
    if (code === 'EISDIR') throw notRegular(path, 'a directory');
    // ENXIO: a FIFO nobody reads, or a socket
    if (code === 'ENXIO') throw notRegular(path, kindOf(path));
    throw err;
  }
  try {
    const st = fstatSync(fd);
    if (st.isFile()) {
      closeSync(fd);
      fd = -1;
      writeFileAtomic(path, content, mode);
      return 'replaced';
    }
    if (!st.isCharacterDevice()) throw notRegular(path, fileKind(st));
    try {
      writeAll(fd, Buffer.from(content, 'utf8'));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const reason = e.code === 'ENOSPC' ? 'no space left on device' : e.message;
      throw new Error(`cannot write ${path}: ${reason}`);
    }
    return 'in_place';
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

function requireFolder(dir: string): void {
  let st: ReturnType<typeof statSync> | undefined;
  try {
    st = statSync(dir);
  } catch {
    st = undefined;
  }
  if (!st)
    throw new AgentctxError('not_found', `no folder ${dir}: create it first, or write elsewhere`, {
      path: dir,
    });
  if (!st.isDirectory()) throw new AgentctxError('invalid_input', `${dir} is not a folder`, { path: dir });
}

function kindOf(path: string): string {
  try {
    return fileKind(statSync(path));
  } catch {
    return 'not a file';
  }
}

/** writeSync until every byte is out; a device that is not ready (EAGAIN) is waited for. */
function writeAll(fd: number, buf: Buffer): void {
  const nap = new Int32Array(new SharedArrayBuffer(4));
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off, buf.length - off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
      Atomics.wait(nap, 0, 0, 10);
    }
  }
}
