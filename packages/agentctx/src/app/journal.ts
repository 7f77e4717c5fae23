import { applySpooledCaptures, type SpoolResult } from '../core/capture/spool.js';
import type { Redact } from '../core/redaction/redact.js';
import { type FoldResult, foldAllJournals } from '../database/journal-fold.js';
import type { Db } from '../database/open.js';
import type { Clock, IdGen } from '../shared/clock.js';
import { appendLog } from './log.js';
import type { Paths } from './paths.js';

/** Days a fully folded journal file is kept after its last write (consolidation removes it). */
const JOURNAL_RETENTION_DAYS = 7;

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

/**
 * Apply the captures hooks spooled while the write lock was busy (core/capture/spool.ts), at
 * consolidation, under the connection's own busy timeout. Never throws: what stays waits for
 * the next writer (logged).
 */
export function drainCaptureSpool(db: Db, paths: Paths, newId: IdGen, redact: Redact): SpoolResult | null {
  try {
    const r = applySpooledCaptures({ db, newId, dir: paths.spool, redact });
    if (r.setAside > 0) appendLog(paths.logs, 'journal', `spool: ${r.setAside} capture(s) set aside as .bad`);
    return r;
  } catch (err) {
    appendLog(paths.logs, 'journal', `spool: left for later (${(err as Error)?.message ?? String(err)})`);
    return null;
  }
}
