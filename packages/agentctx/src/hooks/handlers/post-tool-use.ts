import { loadConfigOrDefault } from '../../app/config.js';
import { observeToolUse } from '../../core/capture/observe.js';
import { editedFile } from '../../core/capture/observe-patterns.js';
import { redactorFor } from '../../core/redaction/redact.js';
import type { HookContext } from '../context.js';
import type { PostToolUseEvent } from '../event.js';
import type { HookResult } from './index.js';

/** PostToolUse (and PostToolUseFailure): deterministic capture only; never injects anything. */
export function postToolUse(ev: PostToolUseEvent, ctx: HookContext): HookResult {
  const capturable = editedFile(ev.toolName, ev.toolInput) !== null || ev.toolName === 'Bash';
  if (!capturable) return null;
  const project = ctx.project();
  observeToolUse(
    {
      db: ctx.db(),
      clock: ctx.clock,
      newId: ctx.newId,
      projectId: project.id,
      projectRoot: project.root,
      sessionId: ev.sessionId,
      // the user's extra patterns apply on the capture path too (a missing config is the defaults)
      redact: redactorFor(loadConfigOrDefault(ctx.paths.config).redact?.extraPatterns).redact,
    },
    {
      toolName: ev.toolName,
      toolInput: ev.toolInput,
      toolResponse: ev.toolResponse,
      error: ev.error,
      cwd: ev.cwd,
    },
  );
  return null;
}
