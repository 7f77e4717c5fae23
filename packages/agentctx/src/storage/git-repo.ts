import { existsSync, realpathSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFile } from './regular-file.js';

export interface RepoInfo {
  /** Absolute path of the work tree's top folder (or of the folder itself when not in a repo). */
  root: string;
  /** The `origin` remote URL as written in the git config, or null. */
  origin: string | null;
  /** Whether `root` is a git work tree. */
  isGit: boolean;
}

function safeRealpath(p: string): string {
  try {
    return realpathSync.native(p); // one realpath(3) instead of an lstat per path component
  } catch {
    return resolve(p);
  }
}

/** Where the repository's shared config lives, following a `.git` file (worktrees, submodules). */
function commonGitDir(dotGit: string): string | null {
  let gitDir = dotGit;
  const st = statSync(dotGit);
  if (st.isFile()) {
    const m = /^gitdir:\s*(.+)$/m.exec(readRegularFile(dotGit));
    if (!m) return null;
    const target = m[1]!.trim();
    gitDir = isAbsolute(target) ? target : resolve(dirname(dotGit), target);
  }
  const commondirFile = join(gitDir, 'commondir');
  if (existsSync(commondirFile)) {
    const common = readRegularFile(commondirFile).trim();
    return isAbsolute(common) ? common : resolve(gitDir, common);
  }
  return gitDir;
}

/** Read `remote.origin.url` from a git config file's text, without spawning git. */
export function originFromConfig(configText: string): string | null {
  let inOrigin = false;
  for (const rawLine of configText.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith('[')) {
      inOrigin = /^\[\s*remote\s+"origin"\s*\]$/i.test(line);
      continue;
    }
    if (!inOrigin) continue;
    const m = /^url\s*=\s*(.*)$/i.exec(line);
    if (m) {
      let value = m[1]!.trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      return value || null;
    }
  }
  return null;
}

/**
 * Find the repository containing `cwd` by walking up to a `.git` entry, and read its origin
 * from the config file. Pure file reads: this runs on the hook path (regular files only: a FIFO
 * in place of .git/config must not hang every hook).
 */
export function findRepo(cwd: string): RepoInfo {
  const start = safeRealpath(cwd);
  let dir = start;
  for (;;) {
    const dotGit = join(dir, '.git');
    if (existsSync(dotGit)) {
      let origin: string | null = null;
      try {
        const common = commonGitDir(dotGit);
        const config = common ? join(common, 'config') : null;
        if (config && existsSync(config)) origin = originFromConfig(readRegularFile(config));
      } catch {
        origin = null;
      }
      return { root: dir, origin, isGit: true };
    }
    const parent = dirname(dir);
    if (parent === dir) return { root: start, origin: null, isGit: false };
    dir = parent;
  }
}
