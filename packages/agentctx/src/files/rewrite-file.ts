import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fchmodSync,
  fsyncSync,
  lstatSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { AgentctxError } from '../shared/errors.js';

/** Symbolic links followed before giving up, as the kernel does (ELOOP). */
const MAX_LINKS = 40;

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** The file a path names once every symlink is followed; also when the last link dangles. */
function followLinks(path: string): string {
  try {
    return realpathSync(path);
  } catch (err) {
    if (code(err) !== 'ENOENT') throw err;
  }
  let p = resolve(path);
  for (let hops = 0; hops < MAX_LINKS; hops++) {
    try {
      if (!lstatSync(p).isSymbolicLink()) return p;
    } catch (err) {
      if (code(err) === 'ENOENT') return p; // the file the (dangling) link will point at
      throw err;
    }
    p = resolve(dirname(p), readlinkSync(p));
  }
  throw new AgentctxError('invalid_input', `${path}: too many symbolic links; nothing was written`);
}

/**
 * Replace the content of a file the developer owns (CLAUDE.md), atomically: a symlink is
 * written through (the link stays, its target gets the text), the file's permission bits are
 * kept exactly (umask does not apply), a new file gets `newMode`. Anything but a regular file
 * (folder, FIFO, device) is refused with nothing written.
 */
export function rewriteFile(path: string, text: string, newMode = 0o644): void {
  const target = followLinks(path);
  let mode = newMode;
  try {
    const st = statSync(target);
    if (!st.isFile()) {
      throw new AgentctxError('invalid_input', `${path} is not a regular file; nothing was written`, {
        path,
      });
    }
    mode = st.mode & 0o7777;
  } catch (err) {
    if (code(err) !== 'ENOENT') throw err;
  }
  const tmp = join(
    dirname(target),
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let off = 0; off < bytes.length; ) off += writeSync(fd, bytes, off, bytes.length - off);
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, target);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
