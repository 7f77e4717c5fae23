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

/** The work tree's own git folder (a `.git` file points to it in worktrees and submodules). */
function ownGitDir(root: string): string | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  if (!statSync(dotGit).isFile()) return dotGit;
  const m = /^gitdir:\s*(.+)$/m.exec(readRegularFile(dotGit));
  if (!m) return null;
  const target = m[1]!.trim();
  return isAbsolute(target) ? target : resolve(root, target);
}

function looseOrPackedRef(gitDirs: string[], ref: string): string | null {
  for (const dir of gitDirs) {
    const loose = join(dir, ref);
    if (existsSync(loose)) {
      const sha = readRegularFile(loose, 4096).trim();
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  for (const dir of gitDirs) {
    const packed = join(dir, 'packed-refs');
    if (!existsSync(packed)) continue;
    for (const line of readRegularFile(packed).split('\n')) {
      const [sha, name] = line.trim().split(' ');
      if (name === ref && sha && /^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  return null;
}

/**
 * The commit HEAD names in the work tree at `root`, read from the files under .git (loose refs,
 * then packed-refs), without spawning git: this runs on the hook path. Null outside git, on an
 * unborn branch, or when anything is unreadable.
 */
export function headCommit(root: string): string | null {
  try {
    const gitDir = ownGitDir(root);
    if (!gitDir) return null;
    const head = readRegularFile(join(gitDir, 'HEAD'), 4096).trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const m = /^ref:\s*(\S+)$/.exec(head);
    if (!m) return null;
    const common = commonGitDir(join(root, '.git'));
    const dirs = common && common !== gitDir ? [gitDir, common] : [gitDir];
    return looseOrPackedRef(dirs, m[1]!);
  } catch {
    return null;
  }
}
