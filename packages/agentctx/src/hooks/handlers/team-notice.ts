import { teamNotice } from '../../core/team/team-notice.js';
import type { HookContext } from '../context.js';
import type { SessionStartEvent } from '../event.js';
import type { HookResult } from './index.js';

/**
 * Add the team-context notice (core/team/team-notice.ts) to what SessionStart injects: after a
 * pull brought a teammate's change to `.agentctx/context.md`, the session learns it at once, and
 * one explicit `agentctx team import` takes it in. The notice never replaces the digest, and a
 * failure to read the file says nothing.
 */
export function withTeamNotice(
  inner: (ev: SessionStartEvent, ctx: HookContext) => HookResult,
): (ev: SessionStartEvent, ctx: HookContext) => HookResult {
  return (ev, ctx) => {
    const result = inner(ev, ctx);
    let notice: string | null = null;
    try {
      const project = ctx.project();
      notice = teamNotice(project.root, ctx.paths.digests, project.id);
    } catch {
      notice = null;
    }
    if (!notice) return result;
    return {
      additionalContext: result?.additionalContext ? `${result.additionalContext}\n\n${notice}` : notice,
    };
  };
}
