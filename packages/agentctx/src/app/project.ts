import { projectIdFor, projectNameFor, remoteForDisplay } from '../core/records/namespace.js';
import { findRepo, linkedWorktreeRoots } from '../git/git-repo.js';

export interface ProjectRef {
  id: string;
  name: string;
  root: string;
  /** The origin remote without credentials (remoteForDisplay); the id is derived from the remote as configured. */
  origin: string | null;
  isGit: boolean;
  /** The main worktree's root (`root` itself outside a linked worktree): what Claude Code keys auto-memory by. */
  mainRoot?: string;
}

/** The project a directory belongs to (CONTRACTS.md §namespaces). File reads only: safe on the hook path. */
export function resolveProject(cwd: string): ProjectRef {
  const repo = findRepo(cwd);
  return {
    id: projectIdFor(repo.origin, repo.identityRoot),
    name: projectNameFor(repo.origin, repo.identityRoot),
    root: repo.root,
    origin: repo.origin === null ? null : remoteForDisplay(repo.origin),
    isGit: repo.isGit,
    mainRoot: repo.identityRoot,
  };
}

/**
 * The ids the project's worktrees were stored under before they shared one (a project without
 * a remote only): one per linked worktree git still lists, and the current work tree's own.
 * Reads the shared git dir's `worktrees/` folder: for commands, not for hooks.
 */
export function legacyProjectIds(cwd: string): string[] {
  const repo = findRepo(cwd);
  if (repo.origin !== null || !repo.isGit || !repo.commonDir) return [];
  const id = projectIdFor(null, repo.identityRoot);
  const roots = new Set([repo.root, ...linkedWorktreeRoots(repo.commonDir)]);
  return [...roots].map((r) => projectIdFor(null, r)).filter((old) => old !== id);
}
