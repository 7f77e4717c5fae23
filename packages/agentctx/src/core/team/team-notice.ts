import { readFileSync, type Stats, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { readRegularFile } from '../../files/regular-file.js';
import { sha256Hex } from '../../shared/sha256.js';
import { TEAM_DIR, TEAM_FILE } from './team-file.js';

/**
 * Staying in step (issue: team context through git). After `git pull` brings a teammate's
 * change to `.agentctx/context.md`, the next session must know it. The SessionStart hook (which
 * never opens SQLite when a digest exists) compares the file's hash with the one written here at
 * the last export or import, and when they differ adds one line to what it injects:
 * "run agentctx team import". The import itself stays explicit (CONTRACTS.md §stored-derived).
 * Light enough for the hook path: a stat of the file when it is as last stamped (the common case);
 * otherwise a read and the plain-JavaScript SHA-256 (about 4 ms for a 27 KB file of 100 records).
 */

/** A larger file is not hashed on the hook path (it is read whole by `team import` only). */
const MAX_BYTES = 4 * 1024 * 1024;

interface Stamp {
  file_sha: string;
  /** The file's size and mtime when stamped: equal now means unchanged, without hashing it. */
  size?: number;
  mtime_ms?: number;
}

function stampPath(digestsDir: string, projectId: string): string {
  return join(digestsDir, `${projectId}.team.json`);
}

function teamPath(root: string): string {
  return join(root, TEAM_DIR, TEAM_FILE);
}

/**
 * Remember the hash of the file as exported or imported, with its size and mtime when the file
 * on disk still holds exactly that text (so the hook can skip hashing an unchanged file).
 */
export function writeTeamStamp(digestsDir: string, projectId: string, fileSha: string, root?: string): void {
  const stamp: Stamp = { file_sha: fileSha };
  if (root) {
    try {
      const st = statSync(teamPath(root));
      if (sha256Hex(readRegularFile(teamPath(root), MAX_BYTES)) === fileSha) {
        stamp.size = st.size;
        stamp.mtime_ms = st.mtimeMs;
      }
    } catch {
      // no file, or not readable: the hash alone
    }
  }
  writeFileAtomic(stampPath(digestsDir, projectId), `${JSON.stringify(stamp)}\n`, 0o600);
}

function readStamp(digestsDir: string, projectId: string): Stamp | null {
  try {
    const v = JSON.parse(readFileSync(stampPath(digestsDir, projectId), 'utf8')) as Partial<Stamp>;
    return typeof v.file_sha === 'string' ? (v as Stamp) : null;
  } catch {
    return null;
  }
}

/** The notice line, or null when the team file is absent or in step with this store. Never throws. */
export function teamNotice(root: string, digestsDir: string, projectId: string): string | null {
  const path = teamPath(root);
  let st: Stats | undefined;
  try {
    st = statSync(path, { throwIfNoEntry: false });
  } catch {
    return null;
  }
  if (!st?.isFile()) return null;
  const stamp = readStamp(digestsDir, projectId);
  // the common case: the file as this store last wrote or read it, told by a stat alone
  if (stamp && stamp.size === st.size && stamp.mtime_ms === st.mtimeMs) return null;
  let text: string;
  try {
    text = readRegularFile(path, MAX_BYTES);
  } catch {
    return null;
  }
  if (!text.includes('<!-- agentctx:')) return null;
  if (stamp?.file_sha === sha256Hex(text)) return null;
  return stamp === null
    ? 'agentctx: this repository has team context (.agentctx/context.md) not imported here yet: run `agentctx team import`.'
    : 'agentctx: team context changed (.agentctx/context.md differs from the last export/import): run `agentctx team import`.';
}
