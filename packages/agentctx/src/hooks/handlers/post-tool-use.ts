import { loadConfigOrDefault } from '../../app/config.js';
import { applyCapture } from '../../core/capture/observe.js';
import { editedFile } from '../../core/capture/observe-patterns.js';
import { prepareCapture } from '../../core/capture/prepare.js';
import { isBusy, spoolCapture } from '../../core/capture/spool.js';
import { redactorFor } from '../../core/redaction/redact.js';
import type { HookContext } from '../context.js';
import type { PostToolUseEvent } from '../event.js';
import type { HookResult } from './index.js';
import { HOOK_LOCK_WAIT_MS } from './lock-wait.js';
import { drainSpool } from './spool.js';

/**
 * PostToolUse (and PostToolUseFailure): deterministic capture only; never injects anything.
 * The capture is decided before the store is touched (most shell commands tell nothing and
 * never open it). The write waits at most HOOK_LOCK_WAIT_MS for the store's write lock; past
 * that it is spooled for the next writer (core/capture/spool.ts), so a tool call never stalls
 * behind another process's write and no capture is lost.
 */
export function postToolUse(ev: PostToolUseEvent, ctx: HookContext): HookResult {
  const capturable = editedFile(ev.toolName, ev.toolInput) !== null || ev.toolName === 'Bash';
  if (!capturable) return null;
  const project = ctx.project();
  // the user's extra patterns apply on the capture path too (a missing config is the defaults)
  const redact = redactorFor(loadConfigOrDefault(ctx.paths.config).redact?.extraPatterns).redact;
  const call = {
    toolName: ev.toolName,
    toolInput: ev.toolInput,
    toolResponse: ev.toolResponse,
    error: ev.error,
    cwd: ev.cwd,
  };
  const capture = prepareCapture(call, project.root, redact);
  if (!capture) return null;
  const db = ctx.db();
  db.pragma(`busy_timeout = ${HOOK_LOCK_WAIT_MS}`);
  const at = ctx.clock();
  try {
    applyCapture(
      {
        db,
        clock: () => at,
        newId: ctx.newId,
        projectId: project.id,
        projectRoot: project.root,
        sessionId: ev.sessionId,
        redact,
        agent: ctx.agent,
      },
      capture,
    );
  } catch (err) {
    if (!isBusy(err)) throw err;
    spoolCapture(ctx.paths.spool, {
      at: at.toISOString(),
      projectId: project.id,
      projectRoot: project.root,
      sessionId: ev.sessionId,
      agent: ctx.agent,
      capture,
    });
    return null;
  }
  drainSpool(ctx, redact); // what earlier hooks had to leave
  return null;
}
