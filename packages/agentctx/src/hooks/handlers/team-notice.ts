import { teamNotice } from '../../core/team/team-notice.js';
import { estimateTokens, truncateLinesToBudget } from '../../shared/tokens.js';
import type { HookContext } from '../context.js';
import type { SessionStartEvent } from '../event.js';
import type { HookResult } from './index.js';

/**
 * Add the team-context notice (core/team/team-notice.ts) to what SessionStart injects: after a
 * pull brought a teammate's change to `.agentctx/context.md`, the session learns it at once, and
 * one explicit `agentctx team import` takes it in. The developer is the one to run it, so the
 * line also goes out as the hook's `systemMessage`, which Claude Code shows to the person. The notice never replaces the digest, and a
 * failure to read the file says nothing.
 */
export function withTeamNotice(
  inner: (ev: SessionStartEvent, ctx: HookContext) => HookResult,
  budgetTokens: number,
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
    // the developer runs the import: they see the line too, not only the model (issue 31 #7)
    const systemMessage = notice;
    if (!result?.additionalContext) return { additionalContext: notice, systemMessage };
    // the notice fits inside the SessionStart budget: the digest gives up its last lines for it
    let text = truncateLinesToBudget(
      result.additionalContext,
      budgetTokens - estimateTokens(notice) - 2,
    ).trimEnd();
    while (text && estimateTokens(`${text}\n\n${notice}`) > budgetTokens) {
      const cut = text.lastIndexOf('\n');
      text = cut > 0 ? text.slice(0, cut).trimEnd() : '';
    }
    return { additionalContext: text ? `${text}\n\n${notice}` : notice, systemMessage };
  };
}
