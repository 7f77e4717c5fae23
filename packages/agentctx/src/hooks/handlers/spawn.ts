import { existsSync } from 'node:fs';
import { spawnDetached } from '../../app/detached.js';
import { appendLog } from '../../app/log.js';
import type { HookContext } from '../context.js';

/** Start `agentctx <args>` in the background from a hook, logging what was started. */
export function spawnBackground(ctx: HookContext, args: string[]): number | undefined {
  const root = ctx.project().root;
  const cwd = existsSync(root) ? root : ctx.paths.home;
  const deadline = Number(ctx.env.AGENTCTX_BACKGROUND_DEADLINE_MS);
  const pid = spawnDetached({
    args,
    cwd: existsSync(cwd) ? cwd : '/',
    env: ctx.env,
    logsDir: ctx.paths.logs,
    deadlineMs: Number.isFinite(deadline) && deadline > 0 ? deadline : undefined,
  });
  appendLog(ctx.paths.logs, 'hooks', `spawned agentctx ${args[0]} pid=${pid ?? 'none'}`);
  return pid;
}

/**
 * Start the extraction of a session's transcript in the background; the agent names the
 * transcript's format (each agent has its own reader). `extra` adds options such as
 * `--precompact`.
 */
export function spawnExtraction(
  ctx: HookContext,
  ev: { sessionId: string; transcriptPath: string },
  extra: string[] = [],
): void {
  if (!ev.sessionId || !ev.transcriptPath) return;
  spawnBackground(ctx, [
    'extract',
    '--session-id',
    ev.sessionId,
    '--transcript',
    ev.transcriptPath,
    ...extra,
    '--agent',
    ctx.agent,
  ]);
}
