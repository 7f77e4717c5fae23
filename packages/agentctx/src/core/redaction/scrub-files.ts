/**
 * The secret scrub's files (scrub.ts does the store): the logs under the agentctx home and the
 * small derived text files (the exported profile, the digests). Logs only grow between runs, so
 * each is read from where the last check ended; a new redactor reads them whole again. A file
 * that holds a secret is rewritten whole, redacted, atomically. Never follows a FIFO or a device.
 */
import { closeSync, fstatSync, readdirSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { openRegularForRead, readRegularFile } from '../../files/regular-file.js';
import { emptyReport, mergeReports, type RedactionReport, redactText } from './gate.js';
import type { Redact } from './redact.js';

export interface FileScrubReport {
  /** Files read (in part or whole) this run. */
  checked: number;
  /** Files rewritten because they held a secret. */
  rewritten: number;
  secrets: RedactionReport;
}

/** How far each log was checked, and with which redactor. */
export interface LogScrubState {
  fingerprint: string;
  files: Record<string, { ino: number; size: number }>;
}

function readFrom(path: string, offset: number): { text: string; end: number } | null {
  let fd: number;
  try {
    fd = openRegularForRead(path);
  } catch {
    return null; // gone, or not a regular file: nothing of ours to read
  }
  try {
    const size = fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    let got = 0;
    while (got < buf.length) {
      const n = readSync(fd, buf, got, buf.length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    // whole lines only: a line still being appended is read next time
    const cut = buf.subarray(0, got).lastIndexOf(0x0a) + 1;
    return { text: buf.subarray(0, cut).toString('utf8'), end: offset + cut };
  } finally {
    closeSync(fd);
  }
}

/** Redact a small text file in place when it holds a secret; null when it is not there. */
export function scrubTextFile(path: string, redact: Redact, field = 'file'): RedactionReport | null {
  let text: string;
  try {
    text = readRegularFile(path);
  } catch {
    return null;
  }
  const out = redactText(redact, text, field);
  if (out.text !== text) writeFileAtomic(path, out.text, 0o600);
  return out.report;
}

/**
 * Check the log files of `dir` from where `state` says the last check ended (whole files for a
 * new fingerprint, a new file, or one that shrank or was replaced); rewrite those that hold a
 * secret. Returns the report and the state to keep.
 */
export function scrubLogs(
  dir: string,
  redact: Redact,
  fingerprint: string,
  state: LogScrubState | undefined,
): { report: FileScrubReport; state: LogScrubState } {
  const report: FileScrubReport = { checked: 0, rewritten: 0, secrets: emptyReport() };
  const next: LogScrubState = { fingerprint, files: {} };
  const known = state?.fingerprint === fingerprint ? Object.values(state.files) : [];
  let names: string[];
  try {
    names = readdirSync(dir).sort();
  } catch {
    return { report, state: next };
  }
  const reports: RedactionReport[] = [];
  for (const name of names) {
    const path = join(dir, name);
    const st = statSync(path, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    // a rotated log keeps its inode under the new name
    const prev = known.find((f) => f.ino === st.ino && f.size <= st.size);
    const from = prev?.size ?? 0;
    if (from === st.size) {
      next.files[name] = { ino: st.ino, size: from };
      continue;
    }
    const tail = readFrom(path, from);
    if (!tail) continue;
    report.checked++;
    const { text, report: found } = redactText(redact, tail.text, 'log');
    if (text === tail.text) {
      next.files[name] = { ino: st.ino, size: tail.end };
      continue;
    }
    const whole = scrubTextFile(path, redact, 'log');
    if (whole) reports.push(whole);
    else reports.push(found);
    report.rewritten++;
    const after = statSync(path, { throwIfNoEntry: false });
    if (after?.isFile()) next.files[name] = { ino: after.ino, size: after.size };
  }
  report.secrets = mergeReports(reports);
  return { report, state: next };
}
