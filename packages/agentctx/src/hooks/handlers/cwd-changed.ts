import { updateSessionState } from '../../core/injection/session-state.js';
import type { HookContext } from '../context.js';
import type { CwdChangedEvent } from '../event.js';
import type { HookResult } from './index.js';

/** CwdChanged: the rest of the session works in the new directory (and its project). */
export function cwdChanged(ev: CwdChangedEvent, ctx: HookContext): HookResult {
  if (ev.newCwd && ctx.statePath)
    ctx.state = updateSessionState(ctx.statePath, { cwd: ev.newCwd }, ctx.clock());
  return null;
}
