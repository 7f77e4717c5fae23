import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { AgentctxError } from '../shared/errors.js';

/**
 * A failed write of a file agentctx keeps (the profile export, a digest), told as its cause:
 * a read-only file system, missing permission, a full disk, or a path that is not a folder.
 * Node's own error for these is often beside the point (creating a missing folder on a
 * read-only mount reports ENOENT), so the nearest existing folder is asked directly.
 */
export function writeFailure(what: string, path: string, err: unknown): AgentctxError {
  const code = String((err as NodeJS.ErrnoException)?.code ?? '');
  const reason = reasonOf(code) ?? probe(dirname(path)) ?? (err as Error)?.message ?? String(err);
  return new AgentctxError(
    'unwritable',
    `cannot write ${what} to ${path}: ${reason}; nothing was written${code ? ` (${code})` : ''}`,
    { path, cause: code || undefined },
  );
}

function reasonOf(code: string): string | null {
  if (code === 'EROFS') return 'the file system is read-only';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'no space left on the device';
  return null;
}

/** Why nothing can be created under `dir`: asked of its nearest existing ancestor. */
function probe(dir: string): string | null {
  for (let d = dir; ; d = dirname(d)) {
    try {
      const st = statSync(d);
      if (!st.isDirectory()) return `${d} is not a folder`;
      accessSync(d, constants.W_OK);
      return null; // writable: the error's own words are the best we have
    } catch (err) {
      const code = String((err as NodeJS.ErrnoException)?.code ?? '');
      if (code !== 'ENOENT') return reasonOf(code) ?? null;
    }
    if (dirname(d) === d) return null;
  }
}
