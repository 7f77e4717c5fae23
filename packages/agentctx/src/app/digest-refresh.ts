import { writeStampedDigest } from '../core/digest/current-digest.js';
import { composeDigest } from '../core/digest/digest.js';
import { sharedWriters, writersOnly } from './agent-scope.js';
import type { App } from './context.js';
import { tryLock } from './lock.js';

/**
 * Rewrite the project's SessionStart digest from the store as it is now, without the rest of
 * consolidation (no record changes). Extraction calls it after writing: SessionEnd's
 * consolidation often composes the digest while the model is still answering. It waits for a
 * consolidation in progress (same lock) so that its digest is the last one written.
 */
export async function refreshDigest(app: App, waitMs = 60_000): Promise<boolean> {
  const name = `consolidate-${app.project.id}`;
  const until = Date.now() + waitMs;
  let lock = tryLock(app.paths.locks, name);
  while (!lock && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    lock = tryLock(app.paths.locks, name);
  }
  if (!lock) return false;
  try {
    const now = app.clock();
    const written = writeStampedDigest(app.db, app.paths.digests, app.project.id, () =>
      composeDigest(app.db, app.project, { now, ...writersOnly({ writers: sharedWriters(app.config) }) }),
    );
    return written.digest !== null;
  } finally {
    lock.release();
  }
}
