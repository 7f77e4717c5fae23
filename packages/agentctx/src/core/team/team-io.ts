import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../../files/atomic-write.js';
import { readRegularFile } from '../../files/regular-file.js';
import { TEAM_ATTRIBUTES, TEAM_DIR, TEAM_FILE } from './team-file.js';
import { writeTeamStamp } from './team-notice.js';

/** The team file of a repository. */
export function teamFilePath(root: string): string {
  return join(root, TEAM_DIR, TEAM_FILE);
}

/** The file's text, or null when there is none. Anything but a regular file is refused. */
export function readTeamFile(path: string): string | null {
  try {
    return readRegularFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/**
 * Write the team file (only when its bytes change, so its mtime says when it last did) and
 * make sure `.agentctx/.gitattributes` names agentctx's merge driver for it. Returns what changed.
 */
export function writeTeamFile(path: string, text: string): { written: boolean; attributes: boolean } {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  const old = readTeamFile(path);
  const written = old !== text;
  if (written) writeFileAtomic(path, text, 0o644);
  const attrPath = join(dir, '.gitattributes');
  const attrs = readTeamFile(attrPath);
  const line = TEAM_ATTRIBUTES.trim();
  let attributes = false;
  if (attrs === null || !attrs.split(/\r?\n/).some((l) => l.trim() === line)) {
    // an older export asked for git's union merge, which mixes two edits of a block line by line
    const kept =
      attrs
        ?.split(/\r?\n/)
        .filter((l) => l.trim() !== `${TEAM_FILE} merge=union`)
        .join('\n') ?? null;
    const before = kept === null ? '' : kept.endsWith('\n') || kept === '' ? kept : `${kept}\n`;
    writeFileAtomic(attrPath, `${before}${TEAM_ATTRIBUTES}`, 0o644);
    attributes = true;
  }
  return { written, attributes };
}

/** After an export or import: the file's hash, for the SessionStart notice (team-notice.ts). */
export function stampTeamSync(digestsDir: string, projectId: string, fileSha: string, root: string): void {
  writeTeamStamp(digestsDir, projectId, fileSha, root);
}
