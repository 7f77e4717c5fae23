import { basename } from 'node:path';
import { foldJournalFile, journalBehind } from '../../database/journal-fold.js';
import type { HookContext } from '../context.js';

/**
 * Fold this session's journal into the store. With `lockWaitMs`, a store whose write lock is
 * held longer (a consolidation step) is left alone: the lines stay in the journal for the next
 * fold. Does nothing without a journal or a store.
 */
export function foldSessionJournal(ctx: HookContext, lockWaitMs?: number): void {
  if (!ctx.journalPath || !ctx.hasStore()) return;
  const db = ctx.db();
  const name = basename(ctx.journalPath);
  if (!journalBehind(db, ctx.paths.journal, name)) return;
  if (lockWaitMs !== undefined) db.pragma(`busy_timeout = ${Math.max(0, Math.trunc(lockWaitMs))}`);
  try {
    foldJournalFile(db, ctx.paths.journal, name, { now: ctx.clock() });
  } catch (err) {
    if (String((err as { code?: unknown })?.code ?? '').startsWith('SQLITE_BUSY')) return;
    throw err;
  }
}
