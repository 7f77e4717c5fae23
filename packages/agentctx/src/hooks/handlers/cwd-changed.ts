import { appendJournal } from '../../files/session-journal.js';
import type { HookContext } from '../context.js';
import type { CwdChangedEvent } from '../event.js';
import type { HookResult } from './index.js';

/**
 * CwdChanged: the rest of the session works in the new directory (and its project). The
 * change is session metadata, so it goes to the session journal, not the disposable dedup file.
 */
export function cwdChanged(ev: CwdChangedEvent, ctx: HookContext): HookResult {
  if (ev.newCwd && ctx.journalPath)
    appendJournal(ctx.journalPath, {
      kind: 'cwd',
      sessionId: ev.sessionId,
      cwd: ev.newCwd,
      at: ctx.clock().toISOString(),
    });
  return null;
}
