import { hookScope, writersOnly } from '../../app/agent-scope.js';
import { promptInjection, searchablePrompt } from '../../core/injection/prompt-injection.js';
import { updateSessionState } from '../../core/injection/session-state.js';
import type { HookContext } from '../context.js';
import type { UserPromptEvent } from '../event.js';
import { recordInjectedTokens } from './accounting.js';
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
    ...writersOnly(hookScope(ctx.paths.config, ctx.agent)),
  });
  if (!injection) return null;
  // The ids go to the dedup file, the tokens to the session journal: no write to the store, so
  // a prompt never queues behind a consolidation's write lock. Stop folds the journal.
  if (ctx.statePath) ctx.state = updateSessionState(ctx.statePath, { addIds: injection.ids }, now, ctx.state);
  recordInjectedTokens(ctx, ev.sessionId, project.id, injection.tokens, {
    ids: injection.ids,
    via: 'prompt',
  });
  return { additionalContext: injection.text };
}
