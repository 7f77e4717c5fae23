import { projectIdFor, projectNameFor, remoteForDisplay } from '../core/records/namespace.js';
import { findRepo } from '../storage/git-repo.js';

export interface ProjectRef {
  id: string;
  name: string;
  root: string;
  /** The origin remote without credentials (remoteForDisplay); the id is derived from the remote as configured. */
  origin: string | null;
  isGit: boolean;
}

/** The project a directory belongs to (SPEC §3.4). File reads only: safe on the hook path. */
export function resolveProject(cwd: string): ProjectRef {
  const repo = findRepo(cwd);
  return {
    id: projectIdFor(repo.origin, repo.root),
    name: projectNameFor(repo.origin, repo.root),
    root: repo.root,
    origin: repo.origin === null ? null : remoteForDisplay(repo.origin),
    isGit: repo.isGit,
  };
}
