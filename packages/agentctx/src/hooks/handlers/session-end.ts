import { endSession } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';
import type { SessionEndEvent } from '../event.js';
import { accountingSession } from './accounting.js';
import { foldSessionJournal } from './fold-journal.js';
import type { HookResult } from './index.js';
import { spawnBackground } from './spawn.js';

/** SessionEnd: start the consolidation pass in the background; note the session's end. */
export function sessionEnd(ev: SessionEndEvent, ctx: HookContext): HookResult {
  const project = ctx.project();
  spawnBackground(ctx, ['consolidate', '--cwd', project.root]);
  if (ev.sessionId) {
    foldSessionJournal(ctx);
    endSession(ctx.db(), accountingSession(ev.sessionId), project.id, ctx.clock().toISOString());
  }
  return null;
}
