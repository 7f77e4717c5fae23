import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { readRegularFile, scanRegularLines } from '../files/regular-file.js';

/**
 * Bounds for the files read on the hook path: a git config past 1 MiB is read to that point
 * (remote and extension sections come first in every config git writes), and packed-refs is
 * scanned 64 KiB at a time, up to 256 MiB, never held whole.
 */
const CONFIG_MAX_BYTES = 1024 * 1024;
const PACKED_REFS_MAX_BYTES = 256 * 1024 * 1024;
const SMALL_FILE_MAX_BYTES = 64 * 1024;

interface RepoInfo {
  /** Absolute path of the work tree's top folder (or of the folder itself when not in a repo). */
  root: string;
  /** The `origin` remote URL as written in the git config, or null. */
  origin: string | null;
  /** Whether `root` is a git work tree. */
  isGit: boolean;
  /**
   * The path a project without a remote is named by: the same for every worktree of one
   * repository (see repoIdentityRoot). Equal to `root` outside a linked worktree.
   */
  identityRoot: string;
  /** The repository's shared git dir (worktrees' `commondir`), or null outside git. */
  commonDir: string | null;
}

function safeRealpath(p: string): string {
  try {
    return realpathSync.native(p); // one realpath(3) instead of an lstat per path component
  } catch {
    return resolve(p);
  }
}

interface GitDirs {
  /** This work tree's own git dir. */
  gitDir: string;
  /** The shared one (differs from gitDir in a linked worktree). */
  common: string;
  /** Whether gitDir names a commondir: a linked worktree (`git worktree add`). */
  linked: boolean;
}

/** Follow a `.git` entry to its git dirs (a `.git` file names the git dir; its `commondir` the shared one). */
function gitDirs(dotGit: string): GitDirs | null {
  let gitDir = dotGit;
  const st = statSync(dotGit);
  if (st.isFile()) {
    const m = /^gitdir:\s*(.+)$/m.exec(readRegularFile(dotGit, SMALL_FILE_MAX_BYTES));
    if (!m) return null;
    const target = m[1]!.trim();
    gitDir = isAbsolute(target) ? target : resolve(dirname(dotGit), target);
  }
  const commondirFile = join(gitDir, 'commondir');
  if (existsSync(commondirFile)) {
    const common = readRegularFile(commondirFile, SMALL_FILE_MAX_BYTES).trim();
    return { gitDir, common: isAbsolute(common) ? common : resolve(gitDir, common), linked: true };
  }
  return { gitDir, common: gitDir, linked: false };
}

/**
 * The first value of `key` in the section matching `section` (e.g. /^core$/, /^remote "origin"$/)
 * of a git config's text, quotes taken off; null when absent or empty. Without spawning git.
 */
function configValue(configText: string, section: RegExp, key: string): string | null {
  let inSection = false;
  const keyLine = new RegExp(`^${key}\\s*=\\s*(.*)$`, 'i');
  for (const rawLine of configText.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (line.startsWith('[')) {
      inSection = section.test(line.slice(1, line.lastIndexOf(']')).trim().replace(/\s+/g, ' '));
      continue;
    }
    const m = inSection ? keyLine.exec(line) : null;
    if (m) {
      let value = m[1]!.trim();
      if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
      return value || null;
    }
  }
  return null;
}

/** `core.worktree` of a git config's text (set for submodules' and some separated git dirs). */
function worktreeFromConfig(configText: string): string | null {
  return configValue(configText, /^core$/i, 'worktree');
}

/**
 * The path every worktree of one repository is named by when it has no remote: the main
 * worktree's root. A linked worktree finds it from the shared git dir: its `core.worktree`
 * when set, else the folder holding it when it is a `.git` folder, else (a bare repository)
 * the shared git dir itself. Outside a linked worktree this is the work tree's own root, as it
 * always was, so the projects already stored keep their ids.
 */
function repoIdentityRoot(root: string, dirs: GitDirs | null, configText: string | null): string {
  if (!dirs?.linked) return root;
  const worktree = configText ? worktreeFromConfig(configText) : null;
  let main: string;
  if (worktree) main = isAbsolute(worktree) ? worktree : resolve(dirs.common, worktree);
  else if (basename(dirs.common) === '.git') main = dirname(dirs.common);
  else main = dirs.common;
  return safeRealpath(main);
}

/**
 * The roots of the repository's linked worktrees, from `<common>/worktrees/<name>/gitdir`
 * (each holds the path of the worktree's `.git` file). Worktrees removed with `git worktree
 * prune` are no longer listed. File reads only; never throws.
 */
export function linkedWorktreeRoots(commonDir: string): string[] {
  const dir = join(commonDir, 'worktrees');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const roots: string[] = [];
  for (const name of names) {
    try {
      const target = readRegularFile(join(dir, name, 'gitdir'), SMALL_FILE_MAX_BYTES).trim();
      if (!target) continue;
      const dotGit = isAbsolute(target) ? target : resolve(join(dir, name), target);
      roots.push(safeRealpath(dirname(dotGit)));
    } catch {
      // an unreadable entry names no worktree
    }
  }
  return roots;
}

/**
 * Whether a git config's text stores refs in reftable (`extensions.refStorage = reftable`, git
 * 2.45 and later). Such a repository keeps HEAD's target and every ref in binary tables under
 * `reftable/`; its `HEAD` file only says `ref: refs/heads/.invalid`, for older gits to refuse.
 */
function usesReftable(configText: string): boolean {
  return configValue(configText, /^extensions$/i, 'refstorage')?.toLowerCase() === 'reftable';
}

/** Read `remote.origin.url` from a git config file's text, without spawning git. */
export function originFromConfig(configText: string): string | null {
  return configValue(configText, /^remote "origin"$/i, 'url');
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
      let dirs: GitDirs | null = null;
      let configText: string | null = null;
      try {
        dirs = gitDirs(dotGit);
        const config = dirs ? join(dirs.common, 'config') : null;
        if (config && existsSync(config)) {
          configText = readRegularFile(config, CONFIG_MAX_BYTES);
          origin = originFromConfig(configText);
        }
      } catch {
        origin = null;
      }
      return {
        root: dir,
        origin,
        isGit: true,
        identityRoot: repoIdentityRoot(dir, dirs, configText),
        commonDir: dirs ? safeRealpath(dirs.common) : null,
      };
    }
    const parent = dirname(dir);
    if (parent === dir)
      return { root: start, origin: null, isGit: false, identityRoot: start, commonDir: null };
    dir = parent;
  }
}

function looseOrPackedRef(gitDirs: string[], ref: string): string | null {
  for (const dir of gitDirs) {
    const loose = join(dir, ref);
    if (existsSync(loose)) {
      const sha = readRegularFile(loose, 4096).trim();
      if (/^[0-9a-f]{40,64}$/.test(sha)) return sha;
    }
  }
  // packed-refs lines are `<sha> <name>`, read as bytes (latin1) so a chunk cut never splits a name
  const wanted = Buffer.from(ref, 'utf8').toString('latin1');
  for (const dir of gitDirs) {
    const packed = join(dir, 'packed-refs');
    if (!existsSync(packed)) continue;
    let found: string | null = null;
    scanRegularLines(
      packed,
      (line) => {
        const [sha, name] = line.trim().split(' ');
        if (name !== wanted || !sha || !/^[0-9a-f]{40,64}$/.test(sha)) return false;
        found = sha;
        return true;
      },
      PACKED_REFS_MAX_BYTES,
    );
    if (found) return found;
  }
  return null;
}

/** This work tree's git dirs, and whether its refs are in reftable; null outside git. */
function repoDirs(root: string): (GitDirs & { reftable: boolean }) | null {
  const dotGit = join(root, '.git');
  if (!existsSync(dotGit)) return null;
  const found = gitDirs(dotGit);
  if (!found) return null;
  const config = join(found.common, 'config');
  const reftable = existsSync(config) && usesReftable(readRegularFile(config, CONFIG_MAX_BYTES));
  return { ...found, reftable };
}

/**
 * Ask git itself, for what only git can read (a reftable repository's refs): one short
 * process, in reftable repositories only. Null when git is missing, too old or slow.
 */
function askGit(root: string, args: string[]): string | null {
  const res = spawnSync('git', ['-C', root, ...args], {
    encoding: 'utf8',
    timeout: 2000,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const out = typeof res.stdout === 'string' ? res.stdout.trim() : '';
  return res.status === 0 && out ? out : null;
}

/**
 * The commit HEAD names in the work tree at `root`, read from the files under .git (loose refs,
 * then packed-refs), without spawning git: this runs on the hook path. In a reftable repository
 * (whose refs no file here names) git is asked instead. Null outside git, on an unborn branch,
 * or when anything is unreadable.
 */
export function headCommit(root: string): string | null {
  try {
    const found = repoDirs(root);
    if (!found) return null;
    if (found.reftable) {
      const sha = askGit(root, ['rev-parse', '--verify', '-q', 'HEAD']);
      return sha && /^[0-9a-f]{40,64}$/.test(sha) ? sha : null;
    }
    const { gitDir, common } = found;
    const head = readRegularFile(join(gitDir, 'HEAD'), 4096).trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const m = /^ref:\s*(\S+)$/.exec(head);
    if (!m) return null;
    const dirs = common !== gitDir ? [gitDir, common] : [gitDir];
    return looseOrPackedRef(dirs, m[1]!);
  } catch {
    return null;
  }
}

/**
 * The branch checked out in the work tree at `root`, from its HEAD file (no git process); in a
 * reftable repository, whose HEAD file names no real branch, from git. Null when detached,
 * outside git, or unreadable.
 */
export function headBranch(root: string): string | null {
  try {
    const found = repoDirs(root);
    if (!found) return null;
    if (found.reftable) return askGit(root, ['symbolic-ref', '--short', '-q', 'HEAD']);
    const head = readRegularFile(join(found.gitDir, 'HEAD'), 4096).trim();
    const m = /^ref:\s*refs\/heads\/(.+)$/.exec(head);
    return m ? m[1]! : null;
  } catch {
    return null;
  }
}
