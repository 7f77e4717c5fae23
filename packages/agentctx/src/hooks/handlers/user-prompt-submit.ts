import { formatInjection, selectHits } from '../../core/injection/injection.js';
import { updateSessionState } from '../../core/injection/session-state.js';
import { search } from '../../core/retrieval/search.js';
import { extractTerms } from '../../storage/fts-query.js';
import type { HookContext } from '../context.js';
import type { UserPromptEvent } from '../event.js';
import { recordInjectedTokens } from './accounting.js';
import type { HookResult } from './index.js';

/** Candidates asked of the engine; the injection keeps at most three strong ones. */
const SEARCH_LIMIT = 12;
/** BM25 candidates re-ranked; fewer than the engine's default, as only three are ever shown. */
const SEARCH_CANDIDATES = 30;
/** Postings the prompt's search may walk before it narrows to records holding two rare words. */
const SEARCH_POSTINGS_BUDGET = 5000;

/**
 * UserPromptSubmit: the retrieval engine on the prompt, minus what this session has already
 * been shown (excluded in SQL, so deeper matches surface), top 3 within the budgets.
 */
export function userPromptSubmit(ev: UserPromptEvent, ctx: HookContext): HookResult {
  const prompt = ev.prompt.trim();
  if (!prompt || /^\/[\w:.-]+$/.test(prompt)) return null; // empty, or a bare slash command
  if (extractTerms(prompt, 1).length === 0) return null;
  if (!ctx.hasStore()) return null;
  const db = ctx.db();
  const project = ctx.project();
  const now = ctx.clock();
  const res = search(db, {
    projectId: project.id,
    query: prompt,
    limit: SEARCH_LIMIT,
    excludeIds: ctx.state.injected,
    candidates: SEARCH_CANDIDATES,
    postingsBudget: SEARCH_POSTINGS_BUDGET,
    indexFirst: true,
    now,
  });
  // what this very session observed itself (error stubs, test outcomes) is already in its context
  const hits = res.hits.filter(
    (h) => !(ev.sessionId && h.record.session_id === ev.sessionId && h.record.source === 'hook_observation'),
  );
  const injection = formatInjection(selectHits(hits, res.terms.length), now);
  if (!injection) return null;
  // The ids go to the dedup file, the tokens to the session journal: no write to the store, so
  // a prompt never queues behind a consolidation's write lock. Stop folds the journal.
  if (ctx.statePath) ctx.state = updateSessionState(ctx.statePath, { addIds: injection.ids }, now);
  recordInjectedTokens(ctx, ev.sessionId, project.id, injection.tokens);
  return { additionalContext: injection.text };
}
