import type { Clock } from '../shared/clock.js';
import { type FoldResult, foldAllJournals } from '../storage/journal-fold.js';
import type { Db } from '../storage/open.js';
import { appendLog } from './log.js';
import type { Paths } from './paths.js';

/** Days a fully folded journal file is kept after its last write (consolidation removes it). */
export const JOURNAL_RETENTION_DAYS = 7;

/**
 * Fold every session journal into the store: before token counts are read (status, the
 * dashboard) and at consolidation, which also removes files folded long ago. Never throws: a
 * store whose write lock stays busy past its timeout, or a journal that cannot be read, leaves
 * the lines for the next fold (logged); the counts read then lack them, nothing is lost.
 */
export function foldJournals(
  db: Db,
  paths: Paths,
  clock: Clock,
  opts: { removeOld?: boolean } = {},
): FoldResult | null {
  const now = clock();
  try {
    return foldAllJournals(db, paths.journal, {
      now,
      ...(opts.removeOld
        ? { removeUntouchedBefore: new Date(now.getTime() - JOURNAL_RETENTION_DAYS * 86_400_000) }
        : {}),
    });
  } catch (err) {
    const busy = String((err as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY');
    appendLog(
      paths.logs,
      'journal',
      `fold deferred: ${busy ? 'the store is busy' : 'error'} (${(err as Error)?.message ?? String(err)})`,
    );
    return null;
  }
}
