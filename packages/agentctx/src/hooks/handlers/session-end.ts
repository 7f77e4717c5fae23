import { sessionJournalPath } from '../../app/paths.js';
import { isBusy } from '../../core/capture/spool.js';
import { endSession } from '../../database/sessions-repo.js';
import { appendJournal } from '../../files/session-journal.js';
import type { HookContext } from '../context.js';
import type { SessionEndEvent } from '../event.js';
import { accountingSession } from './accounting.js';
import { foldSessionJournal } from './fold-journal.js';
import type { HookResult } from './index.js';
import { HOOK_LOCK_WAIT_MS } from './lock-wait.js';
import { spawnBackground } from './spawn.js';
import { drainSpool } from './spool.js';

/**
 * SessionEnd: start the consolidation pass in the background; note the session's end. Waits
 * at most HOOK_LOCK_WAIT_MS for the store's write lock: when another process holds it, the end
 * goes to the session journal (folded by the consolidation started here, or the next fold) and
 * the journal's other lines stay there for it too.
 */
export function sessionEnd(ev: SessionEndEvent, ctx: HookContext): HookResult {
  const project = ctx.project();
  spawnBackground(ctx, ['consolidate', '--cwd', project.root]);
  if (ev.sessionId) {
    foldSessionJournal(ctx, HOOK_LOCK_WAIT_MS);
    const session = accountingSession(ev.sessionId);
    const at = ctx.clock().toISOString();
    const db = ctx.db();
    db.pragma(`busy_timeout = ${HOOK_LOCK_WAIT_MS}`);
    try {
      endSession(db, session, project.id, at);
    } catch (err) {
      if (!isBusy(err)) throw err;
      const path = ctx.journalPath ?? sessionJournalPath(ctx.paths, session);
      appendJournal(path, { kind: 'end', sessionId: session, projectId: project.id, at });
    }
  }
  drainSpool(ctx);
  return null;
}
