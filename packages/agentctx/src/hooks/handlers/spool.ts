import { loadConfigOrDefault } from '../../app/config.js';
import { appendLog } from '../../app/log.js';
import { applySpooledCaptures } from '../../core/capture/spool.js';
import { type Redact, redactorFor } from '../../core/redaction/redact.js';
import { spoolWaiting } from '../../files/capture-spool.js';
import type { HookContext } from '../context.js';
import { HOOK_LOCK_WAIT_MS } from './lock-wait.js';

/**
 * Apply the captures spooled by earlier hooks (core/capture/spool.ts), under the hook's short
 * lock wait. A readdir when there are none. Never throws: what stays is applied by a later writer.
 */
export function drainSpool(ctx: HookContext, redact?: Redact): void {
  if (!spoolWaiting(ctx.paths.spool)) return;
  try {
    const db = ctx.db();
    db.pragma(`busy_timeout = ${HOOK_LOCK_WAIT_MS}`);
    const r = applySpooledCaptures({
      db,
      newId: ctx.newId,
      dir: ctx.paths.spool,
      redact: redact ?? redactorFor(loadConfigOrDefault(ctx.paths.config).redact?.extraPatterns).redact,
    });
    if (r.setAside > 0)
      appendLog(ctx.paths.logs, 'hooks', `spool: ${r.setAside} capture(s) set aside as .bad`);
  } catch (err) {
    appendLog(ctx.paths.logs, 'hooks', `spool: left for later (${(err as Error)?.message ?? String(err)})`);
  }
}
