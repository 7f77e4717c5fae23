import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';

const MAX_BYTES = 512 * 1024;

/**
 * Open a log file for appending (created 0600), or null when it is not a regular file: opened
 * non-blocking, so a FIFO in its place cannot hang the process (a hook least of all).
 */
export function openLogFile(file: string): number | null {
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK,
    0o600,
  );
  if (fstatSync(fd).isFile()) return fd;
  closeSync(fd);
  return null;
}

/**
 * Append one line to `<logs>/<name>.log`. Size-bounded: past 512 KB the file is rotated to
 * `<name>.log.1` (one generation kept). Never throws: logging must not break anything.
 */
export function appendLog(logsDir: string, name: string, message: string): void {
  try {
    mkdirSync(logsDir, { recursive: true, mode: 0o700 });
    const file = join(logsDir, `${name}.log`);
    try {
      if (statSync(file).size > MAX_BYTES) renameSync(file, `${file}.1`);
    } catch {
      // no file yet
    }
    const line = `${new Date().toISOString()} [${process.pid}] ${message.replace(/\s*\n\s*/g, ' | ').slice(0, 4000)}\n`;
    const fd = openLogFile(file);
    if (fd === null) return;
    try {
      writeSync(fd, line);
    } finally {
      closeSync(fd);
    }
  } catch {
    // nowhere to log to
  }
}
