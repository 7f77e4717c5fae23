import { promptInjection, searchablePrompt } from '../../core/injection/prompt-injection.js';
import { updateSessionState } from '../../core/injection/session-state.js';
import { addInjectedTokens } from '../../storage/sessions-repo.js';
import type { HookContext } from '../context.js';
import type { UserPromptEvent } from '../event.js';
import { accountingSession } from './accounting.js';
import type { HookResult } from './index.js';

/**
 * UserPromptSubmit: the retrieval engine on the prompt, minus what this session has already
 * been shown (excluded in SQL, so deeper matches surface), top 3 within the budgets.
 */
export function userPromptSubmit(ev: UserPromptEvent, ctx: HookContext): HookResult {
  if (!searchablePrompt(ev.prompt)) return null;
  if (!ctx.hasStore()) return null;
  const db = ctx.db();
  const project = ctx.project();
  const now = ctx.clock();
  const injection = promptInjection(db, {
    projectId: project.id,
    prompt: ev.prompt,
    excludeIds: ctx.state.injected,
    sessionId: ev.sessionId,
    now,
  });
  if (!injection) return null;
  // The tokens wait in the session file with the ids (one write, none to the store: a prompt
  // never queues behind a consolidation's write lock); Stop, at the end of this turn, flushes them.
  if (ctx.statePath)
    ctx.state = updateSessionState(
      ctx.statePath,
      { addIds: injection.ids, addPendingTokens: injection.tokens },
      now,
    );
  else
    addInjectedTokens(db, accountingSession(ev.sessionId), project.id, injection.tokens, now.toISOString());
  return { additionalContext: injection.text };
}
