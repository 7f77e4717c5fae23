import { writeStampedDigest } from '../core/digest/current-digest.js';
import { composeDigest } from '../core/digest/digest.js';
import { removeDigest } from '../core/digest/digest-file.js';
import type { Db } from '../database/open.js';
import { idsWithData, mergeProjectInto } from '../database/project-merge.js';
import { errorMessage } from '../shared/errors.js';
import { appendLog } from './log.js';
import type { Paths } from './paths.js';
import { legacyProjectIds, type ProjectRef } from './project.js';

/**
 * Worktrees of a repository without a remote were projects of their own (each root hashed to
 * its own id); they now share the main worktree's id. Records stored under an old id are moved
 * to the shared one the first time a command, the MCP server or a consolidation opens the store
 * in any worktree of the repository (database/project-merge.ts). Moving, rather than reading
 * old ids as aliases, keeps one id per project in every query, digest and team link; the probe
 * is one indexed query per old id. Hooks do not do it: a session in a worktree not yet moved
 * sees the old records from its first consolidation on (SessionEnd starts one).
 * Never throws: a failure is logged and the command goes on.
 */
export function adoptWorktreeProjects(db: Db, project: ProjectRef, paths: Paths, now: Date): number {
  if (project.origin !== null || !project.isGit) return 0;
  try {
    const old = idsWithData(db, legacyProjectIds(project.root));
    if (old.length === 0) return 0;
    let moved = 0;
    for (const id of old) {
      const c = mergeProjectInto(db, id, project.id, now);
      moved += c.records;
      removeDigest(paths.digests, id);
      appendLog(
        paths.logs,
        'agentctx',
        `worktrees share one project: moved ${c.records} records and ${c.sessions} sessions from ${id} to ${project.id} (${project.name})`,
      );
    }
    writeStampedDigest(db, paths.digests, project.id, () => composeDigest(db, project, { now }));
    return moved;
  } catch (err) {
    appendLog(paths.logs, 'agentctx', `worktree adoption for ${project.id}: ${errorMessage(err)}`);
    return 0;
  }
}
