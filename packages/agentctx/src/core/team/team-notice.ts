import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sha256Hex } from '../../shared/sha256.js';
import { writeFileAtomic } from '../../storage/atomic-write.js';
import { readRegularFile } from '../../storage/regular-file.js';
import { TEAM_DIR, TEAM_FILE } from './team-file.js';

/**
 * Staying in step (issue: team context through git). After `git pull` brings a teammate's
 * change to `.agentctx/context.md`, the next session must know it. The SessionStart hook (which
 * never opens SQLite when a digest exists) compares the file's hash with the one written here at
 * the last export or import, and when they differ adds one line to what it injects:
 * "run agentctx team import". The import itself stays explicit (SPEC §7). Light enough for the
 * hook path: node:fs and the plain-JavaScript SHA-256, nothing else.
 */

/** A larger file is not hashed on the hook path (it is read whole by `team import` only). */
const MAX_BYTES = 4 * 1024 * 1024;

function stampPath(digestsDir: string, projectId: string): string {
  return join(digestsDir, `${projectId}.team.json`);
}

export function writeTeamStamp(digestsDir: string, projectId: string, fileSha: string): void {
  writeFileAtomic(stampPath(digestsDir, projectId), `${JSON.stringify({ file_sha: fileSha })}\n`, 0o600);
}

function readStamp(digestsDir: string, projectId: string): string | null {
  try {
    const v = JSON.parse(readFileSync(stampPath(digestsDir, projectId), 'utf8')) as { file_sha?: unknown };
    return typeof v.file_sha === 'string' ? v.file_sha : null;
  } catch {
    return null;
  }
}

/** The notice line, or null when the team file is absent or in step with this store. Never throws. */
export function teamNotice(root: string, digestsDir: string, projectId: string): string | null {
  let text: string;
  try {
    text = readRegularFile(join(root, TEAM_DIR, TEAM_FILE), MAX_BYTES);
  } catch {
    return null;
  }
  if (!text.includes('<!-- agentctx:')) return null;
  const stamp = readStamp(digestsDir, projectId);
  if (stamp === sha256Hex(text)) return null;
  return stamp === null
    ? 'agentctx: this repository has team context (.agentctx/context.md) not imported here yet: run `agentctx team import`.'
    : 'agentctx: team context changed (.agentctx/context.md differs from the last export/import): run `agentctx team import`.';
}
