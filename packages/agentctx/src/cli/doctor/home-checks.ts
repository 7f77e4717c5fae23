import { type Dirent, existsSync, readdirSync, readFileSync, statfsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../../app/context.js';
import { type Check, fail, formatBytes, ok, warn } from './check.js';

/** Doctor's checks of the agentctx home: recent errors in the logs, and disk use. */

/** How far back an error in the logs counts as recent. */
export const RECENT_MS = 24 * 60 * 60_000;

/** A log line that reports a failure. */
const ERROR_LINE =
  /\b(failed|uncaught|cannot|unhandled|deadline reached)\b|\b[A-Z][A-Za-z]*Error\b|SQLITE_[A-Z]+/;
/** …unless it only says work went on a level down (keyword-only, rules only). */
const DEGRADED = /keyword-only|rules only|rule-based/;
/**
 * background.log holds the jobs' own output (their record lists too, whose titles may say
 * "Error"): there only the CLI's error lines, a crash's error line and a deadline count.
 */
const BACKGROUND_ERROR = /^agentctx(?: mcp)?: |deadline reached|^(?:Uncaught )?[A-Z][A-Za-z]*Error\b/;
const STAMP = /^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)\s/;

interface LogError {
  file: string;
  at: string;
  line: string;
}

/**
 * The error lines of the last RECENT_MS in `<logs>/*.log`. A line without a timestamp (a
 * background job's own output) takes the one of the line before it.
 */
export function recentLogErrors(logsDir: string, now: Date): LogError[] {
  let names: string[];
  try {
    names = readdirSync(logsDir).filter((n) => n.endsWith('.log'));
  } catch {
    return [];
  }
  const since = now.getTime() - RECENT_MS;
  const out: LogError[] = [];
  for (const name of names.sort()) {
    const file = join(logsDir, name);
    let text: string;
    try {
      const st = statSync(file);
      if (!st.isFile() || st.mtimeMs < since) continue;
      // the end of the file holds the recent lines; logs rotate at 512 KB anyway
      const buf = readFileSync(file);
      text = buf.subarray(Math.max(0, buf.length - 1024 * 1024)).toString('utf8');
    } catch {
      continue;
    }
    let at: string | null = null;
    for (const line of text.split('\n')) {
      const m = STAMP.exec(line);
      if (m) at = m[1] ?? null;
      if (!at || Date.parse(at) < since) continue;
      const error = name.startsWith('background.')
        ? BACKGROUND_ERROR.test(line)
        : ERROR_LINE.test(line) && !DEGRADED.test(line) && !/ spawn(ed)? agentctx /.test(line);
      if (error) out.push({ file, at, line: line.replace(STAMP, '').slice(0, 300) });
    }
  }
  return out.sort((x, y) => (x.at < y.at ? -1 : 1));
}

export function logsCheck(a: App): Check {
  const errors = recentLogErrors(a.paths.logs, a.clock());
  if (errors.length === 0) {
    const any = existsSync(a.paths.logs);
    return ok('jobs', 'background jobs', any ? 'no errors in the logs of the last 24 hours' : 'no logs yet');
  }
  const last = errors[errors.length - 1] as LogError;
  const files = [...new Set(errors.map((e) => e.file))];
  return fail(
    'jobs',
    'background jobs',
    `${errors.length} error${errors.length === 1 ? '' : 's'} in the last 24 hours; latest (${last.at}): ${last.line.slice(0, 160)}`,
    `read ${files.join(', ')}; run the failing job in a terminal to see it whole (\`agentctx consolidate\`, or \`agentctx extract --session-id ID --transcript FILE\`)`,
    { errors: errors.slice(-5), files },
  );
}

/** Bytes under `dir` (regular files; links not followed). */
function sizeOf(dir: string): number {
  let total = 0;
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) total += sizeOf(p);
    else if (e.isFile())
      try {
        total += statSync(p).size;
      } catch {
        // gone meanwhile
      }
  }
  return total;
}

/** Free space below which doctor warns: a write-ahead log and a consolidation need room. */
const LOW_FREE_BYTES = 200 * 1024 * 1024;

export function diskCheck(a: App): Check {
  const home = a.paths.home;
  if (!existsSync(home)) return ok('disk', 'disk use', `no agentctx home yet (${home})`);
  const store = ['', '-wal', '-shm'].reduce((s, suffix) => {
    try {
      return s + statSync(`${a.paths.db}${suffix}`).size;
    } catch {
      return s;
    }
  }, 0);
  const total = sizeOf(home);
  const parts = {
    store,
    models: sizeOf(a.paths.models),
    semantic: sizeOf(join(home, 'semantic')),
    logs: sizeOf(a.paths.logs),
    total,
  };
  const shown = [
    `store ${formatBytes(store)}`,
    parts.models ? `models ${formatBytes(parts.models)}` : '',
    parts.semantic ? `semantic layer ${formatBytes(parts.semantic)}` : '',
    `logs ${formatBytes(parts.logs)}`,
  ].filter(Boolean);
  let free: number | null = null;
  try {
    const fs = statfsSync(home);
    free = fs.bavail * fs.bsize;
  } catch {
    free = null;
  }
  const details = { path: home, ...parts, free };
  const summary = `${formatBytes(total)} in ${home} (${shown.join(', ')})`;
  if (free !== null && free < LOW_FREE_BYTES)
    return warn(
      'disk',
      'disk use',
      `${summary}; only ${formatBytes(free)} free`,
      'free some disk space: a full disk stops agentctx from writing',
      details,
    );
  return ok('disk', 'disk use', `${summary}${free !== null ? `; ${formatBytes(free)} free` : ''}`, details);
}
