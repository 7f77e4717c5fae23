import { appendLog } from '../../app/log.js';
import { sessionJournalPath } from '../../app/paths.js';
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
