import { spawnSync } from 'node:child_process';

/**
 * The project's recent history from one `git log` (consolidation only: never on a hook path,
 * which must spawn no process). Commits newest first; per path, the positions of the commits
 * that touched it; renames (old path → new path, at the commit that made them). Paths are
 * relative to the project root (`--relative`), as file nodes name them.
 */

export interface GitHistory {
  /** commit → position in the log (0 = HEAD). */
  position: Map<string, number>;
  /** path → positions of the commits that changed it (any status). */
  touches: Map<string, number[]>;
  /** old path → renames away from it, newest first. */
  renames: Map<string, { to: string; at: number }[]>;
  /** Commits read (the log is cut at HISTORY_LIMIT). */
  commits: number;
}

const HISTORY_LIMIT = 5000;

/**
 * Parse `git log -z --format=%x01%H --name-status`: NUL-separated fields, so a path holding a
 * newline, a tab or a quote comes through as it is (without -z git quotes such paths, and a
 * line split would cut them). Each commit is `\x01<sha>`, then `\n` before its first status;
 * each change is a status field then one path (two for a rename or copy).
 */
export function parseGitLog(out: string): GitHistory {
  const h: GitHistory = { position: new Map(), touches: new Map(), renames: new Map(), commits: 0 };
  let pos = -1;
  const touch = (path: string) => {
    const list = h.touches.get(path);
    if (list) {
      if (list[list.length - 1] !== pos) list.push(pos);
    } else h.touches.set(path, [pos]);
  };
  const fields = out.split('\0');
  let afterHeader = false;
  for (let i = 0; i < fields.length; i++) {
    let field = fields[i]!;
    if (afterHeader && field.startsWith('\n')) field = field.slice(1);
    afterHeader = false;
    if (field.startsWith('\x01')) {
      pos++;
      h.position.set(field.slice(1).trim(), pos);
      afterHeader = true;
      continue;
    }
    if (pos < 0 || !/^[A-Z][0-9]*$/.test(field)) continue;
    if (field.startsWith('R') || field.startsWith('C')) {
      const from = fields[++i];
      const to = fields[++i];
      if (from === undefined || to === undefined) break;
      touch(from);
      touch(to);
      if (field.startsWith('R')) {
        const list = h.renames.get(from) ?? [];
        list.push({ to, at: pos });
        h.renames.set(from, list);
      }
    } else {
      const path = fields[++i];
      if (path === undefined) break;
      touch(path);
    }
  }
  h.commits = pos + 1;
  return h;
}

/** Null outside git or when git cannot run (the check then works from file contents alone). */
export function readGitHistory(root: string, limit = HISTORY_LIMIT): GitHistory | null {
  const res = spawnSync(
    'git',
    [
      '-C',
      root,
      'log',
      '-z',
      `-n${limit}`,
      '--format=%x01%H',
      '--name-status',
      '-M',
      '--relative',
      'HEAD',
      '--',
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, timeout: 30_000, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  if (res.status !== 0 || typeof res.stdout !== 'string') return null;
  return parseGitLog(res.stdout);
}
