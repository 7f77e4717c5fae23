import { appendFileSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';

const MAX_BYTES = 512 * 1024;

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
    appendFileSync(file, line, { mode: 0o600 });
  } catch {
    // nowhere to log to
  }
}
