import { appendLog } from '../../app/log.js';
import { sessionJournalPath } from '../../app/paths.js';
import { addInjectedTokens } from '../../database/sessions-repo.js';
import { addShown } from '../../database/usage-repo.js';
import { appendJournal, type InjectionVia } from '../../files/session-journal.js';
import type { HookContext } from '../context.js';

/** The session id injections are counted under when a payload has none. */
export function accountingSession(sessionId: string): string {
  return sessionId || 'unknown';
}

/** The records an injection showed, and through which surface. */
interface Shown {
  ids: readonly string[];
  via: InjectionVia;
}

/**
 * Self-accounting (CONTRACTS.md §accounting): an injection's tokens and the ids of the records it
 * showed, appended to the session journal (stored data, never the disposable dedup file). No
 * database write on the session's critical path, so a prompt never queues behind a consolidation's
 * write lock; Stop, SessionEnd, consolidation and the readers of the counts fold the journal into
 * `sessions`. Only when the journal cannot be written do the tokens go to the store directly. Never
 * throws.
 */
export function recordInjectedTokens(
  ctx: HookContext,
  sessionId: string,
  projectId: string,
  tokens: number,
  shown?: Shown,
): void {
  if (tokens <= 0) return;
  const ids = shown ? [...shown.ids] : [];
  const session = accountingSession(sessionId);
  const at = ctx.clock().toISOString();
  const path = ctx.journalPath ?? sessionJournalPath(ctx.paths, session);
  try {
    appendJournal(path, {
      kind: 'tokens',
      sessionId: session,
      projectId,
      tokens,
      at,
      ...(shown && ids.length > 0 ? { ids, via: shown.via } : {}),
    });
    return;
  } catch (err) {
    appendLog(ctx.paths.logs, 'hooks', `journal ${path}: ${(err as Error)?.message ?? String(err)}`);
  }
  try {
    const db = ctx.db();
    db.transaction(() => {
      addInjectedTokens(db, session, projectId, tokens, at);
      if (shown && ids.length > 0) addShown(db, session, ids, shown.via, tokens / ids.length, at);
    })();
  } catch (err) {
    appendLog(
      ctx.paths.logs,
      'hooks',
      `tokens of ${session} lost: ${(err as Error)?.message ?? String(err)}`,
    );
  }
}
