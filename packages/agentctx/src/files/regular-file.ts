import { closeSync, constants, fstatSync, openSync, readSync, type Stats, statSync } from 'node:fs';
import { AgentctxError } from '../shared/errors.js';

/**
 * Paths agentctx is given (a transcript, an export target, a config file) may name something
 * other than a regular file. A plain open() of a FIFO blocks until someone opens the other end,
 * and while it blocks the event loop stops: no timer, no deadline fires. So every such path is
 * opened non-blocking and checked with fstat (on the descriptor: no window between a check and
 * the open) before a byte is read or written.
 */

/** What a file is, in words, for an error message. */
export function fileKind(st: Stats): string {
  if (st.isFile()) return 'a regular file';
  if (st.isDirectory()) return 'a directory';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return 'not a file';
}

export function notRegular(path: string, kind: string): AgentctxError {
  return new AgentctxError('invalid_input', `${path} is not a regular file (${kind}); refused`, {
    path,
    kind,
  });
}

/**
 * Open `path` for reading, refusing anything that is not a regular file (symbolic links are
 * followed). Throws AgentctxError for a non-regular file, the system error otherwise (ENOENT…).
 */
export function openRegularForRead(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  let st: Stats;
  try {
    st = fstatSync(fd);
  } catch (err) {
    closeSync(fd);
    throw err;
  }
  if (!st.isFile()) {
    closeSync(fd);
    throw notRegular(path, fileKind(st));
  }
  return fd;
}

/** The bytes of an open file from offset `from` up to `to` (fewer when it ends first). */
export function readRange(fd: number, from: number, to: number): Buffer {
  const buf = Buffer.alloc(Math.max(0, to - from));
  let got = 0;
  while (got < buf.length) {
    const n = readSync(fd, buf, got, buf.length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/** Read a regular file as UTF-8 (at most `maxBytes`), refusing any other kind of file. */
export function readRegularFile(path: string, maxBytes = Number.MAX_SAFE_INTEGER): string {
  const fd = openRegularForRead(path);
  try {
    return readRange(fd, 0, Math.min(fstatSync(fd).size, maxBytes)).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * The last `maxBytes` of a regular file as UTF-8, refusing any other kind of file. A tail that
 * starts mid-file drops its first, partial line (a cut JSON line is not JSON).
 */
export function readRegularTail(path: string, maxBytes: number): string {
  const fd = openRegularForRead(path);
  try {
    const size = fstatSync(fd).size;
    const start = Math.max(0, size - maxBytes);
    const text = readRange(fd, start, size).toString('utf8');
    return start === 0 ? text : text.slice(text.indexOf('\n') + 1);
  } finally {
    closeSync(fd);
  }
}

/**
 * Visit the lines of a regular file in order, holding one 64 KiB chunk (and the line it cuts) in
 * memory rather than the whole file; stops when `visit` returns true or after `maxBytes`.
 * False when `maxBytes` cut the scan short. For files of any size on the hook path (packed-refs).
 */
export function scanRegularLines(
  path: string,
  visit: (line: string) => boolean | undefined,
  maxBytes: number,
): boolean {
  const fd = openRegularForRead(path);
  try {
    const size = fstatSync(fd).size;
    const end = Math.min(size, maxBytes);
    let rest = '';
    for (let at = 0; at < end; at += SCAN_CHUNK) {
      const lines = (rest + readRange(fd, at, Math.min(end, at + SCAN_CHUNK)).toString('latin1')).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) if (visit(line)) return true;
    }
    if (rest && end === size && visit(rest)) return true;
    return end === size;
  } finally {
    closeSync(fd);
  }
}

const SCAN_CHUNK = 64 * 1024;

/**
 * Visit the whole lines of a regular file from its last to its first, holding one 64 KiB chunk
 * and the line it cuts in memory; stops when `visit` returns true. Only the last `maxBytes` are
 * read. A last line without its newline (a write in progress) is not visited, nor is a line
 * longer than `maxLineBytes` (skipped, never held whole), nor the line `maxBytes` cuts. True
 * when `visit` stopped the scan. For files read on the hook path whose newest line wins.
 */
export function scanRegularLinesBackward(
  path: string,
  visit: (line: string) => boolean | undefined,
  maxBytes: number,
  maxLineBytes: number,
): boolean {
  const fd = openRegularForRead(path);
  try {
    let at = fstatSync(fd).size;
    const floor = Math.max(0, at - maxBytes);
    // the start of the line cut by the chunk read last: its beginning lies before `at`
    let carry = Buffer.alloc(0);
    // true once past the file's last newline (what follows it is not a whole line)
    let whole = false;
    // true while inside a line longer than maxLineBytes: its pieces are dropped
    let skipping = false;
    while (at > floor) {
      const from = Math.max(floor, at - SCAN_CHUNK);
      const buf = Buffer.concat([readRange(fd, from, at), carry]);
      at = from;
      let end = buf.length;
      // each newline ends the line after it; `end` is where that line ends
      for (let nl = buf.lastIndexOf(0x0a, end - 1); nl >= 0; ) {
        const fits = !skipping && end - nl - 1 <= maxLineBytes;
        if (whole && fits && visit(buf.toString('utf8', nl + 1, end))) return true;
        whole = true;
        skipping = false;
        end = nl;
        nl = end > 0 ? buf.lastIndexOf(0x0a, end - 1) : -1;
      }
      carry = buf.subarray(0, end);
      if (carry.length > maxLineBytes) {
        carry = Buffer.alloc(0);
        skipping = true;
      }
    }
    // the file's first line, whole only when the scan reached the start
    return floor === 0 && whole && !skipping && visit(carry.toString('utf8')) === true;
  } finally {
    closeSync(fd);
  }
}

/**
 * What is at `path` now, when it exists and is not a regular file (links followed): the words
 * for it, else null. Used before a path is replaced, so a device, a FIFO or a directory is
 * never swapped for a regular file.
 */
export function nonRegularKind(path: string): string | null {
  let st: Stats | undefined;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return null; // cannot tell (a permission problem): the write itself will say
  }
  return st && !st.isFile() ? fileKind(st) : null;
}
