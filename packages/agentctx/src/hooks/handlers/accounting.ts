import { basename } from 'node:path';
import { appendLog } from '../../app/log.js';
import { sessionJournalPath } from '../../app/paths.js';
import { foldJournalFile, journalBehind } from '../../storage/journal-fold.js';
import { appendJournal } from '../../storage/session-journal.js';
import { addInjectedTokens } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';

/** The session id injections are counted under when a payload has none. */
export function accountingSession(sessionId: string): string {
  return sessionId || 'unknown';
}

/**
 * Self-accounting (SPEC §9): an injection's tokens, appended to the session journal (stored
 * data, never the disposable dedup file). No database write on the session's critical path,
 * so a prompt never queues behind a consolidation's write lock; Stop, SessionEnd,
 * consolidation and the readers of the counts fold the journal into `sessions`. Only when the
 * journal cannot be written do the tokens go to the store directly. Never throws.
 */
export function recordInjectedTokens(
  ctx: HookContext,
  sessionId: string,
  projectId: string,
  tokens: number,
): void {
  if (tokens <= 0) return;
  const session = accountingSession(sessionId);
  const at = ctx.clock().toISOString();
  const path = ctx.journalPath ?? sessionJournalPath(ctx.paths, session);
  try {
    appendJournal(path, { kind: 'tokens', sessionId: session, projectId, tokens, at });
    return;
  } catch (err) {
    appendLog(ctx.paths.logs, 'hooks', `journal ${path}: ${(err as Error)?.message ?? String(err)}`);
  }
  try {
    addInjectedTokens(ctx.db(), session, projectId, tokens, at);
  } catch (err) {
    appendLog(
      ctx.paths.logs,
      'hooks',
      `tokens of ${session} lost: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}

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
