import { hookScope, writersOnly } from '../../app/agent-scope.js';
import { sessionStatePath } from '../../app/paths.js';
import { subagentTask } from '../../claude/subagent-task.js';
import { promptInjection, searchablePrompt } from '../../core/injection/prompt-injection.js';
import { readSessionState, updateSessionState } from '../../core/injection/session-state.js';
import type { ContextRecord } from '../../shared/types.js';
import type { HookContext } from '../context.js';
import type { SubagentStartEvent } from '../event.js';
import { recordInjectedTokens } from './accounting.js';
import type { HookResult } from './index.js';

const SUBAGENT_HEADER =
  'agentctx: project context from earlier sessions that may bear on this task. Items marked "unconfirmed" are hypotheses to check, not established facts. Full records: ctx_get with the id.';

/** Titles shorter than this are too common to tell that a task quotes a record. */
const MIN_QUOTED_TITLE = 16;

/**
 * The dedup key of one subagent: its own state file beside the session's. Measured with claude
 * 2.1.332: a subagent's requests carry neither the session's SessionStart digest nor its prompt
 * injections, so the parent's dedup set is not what the subagent has seen.
 */
export function subagentStateKey(sessionId: string, agentId: string): string {
  return `${sessionId}-agent-${agentId}`;
}

/**
 * What the subagent already holds without us: records the parent quoted into the task (by id,
 * or, for a record the parent was shown, by its title). Those are not injected again.
 */
function quotedInTask(task: string, parentShown: ReadonlySet<string>) {
  const lower = task.toLowerCase();
  return (r: ContextRecord): boolean =>
    task.includes(r.id) ||
    (parentShown.has(r.id) && r.title.length >= MIN_QUOTED_TITLE && lower.includes(r.title.toLowerCase()));
}

/**
 * SubagentStart: the prompt hook's engine and budgets (top 3, 2,000 tokens, 8,000 characters)
 * on the subagent's task, read from the payload or the parent's transcript. Deduplicated
 * against what the subagent already holds: its own earlier injections (a resumed subagent) and
 * what the parent quoted into its task. The parent's dedup set is not touched: the parent has
 * not seen what its subagent was given.
 */
export function subagentStart(ev: SubagentStartEvent, ctx: HookContext): HookResult {
  if (!ctx.hasStore()) return null;
  const found = ev.prompt.trim()
    ? { text: ev.prompt.trim(), from: 'payload' }
    : subagentTask(ev.transcriptPath, ev.sessionId, ev.agentId);
  const task = found.text;
  if (!searchablePrompt(task)) return null;
  const statePath =
    ev.sessionId && ev.agentId
      ? sessionStatePath(ctx.paths, subagentStateKey(ev.sessionId, ev.agentId))
      : null;
  const own = statePath ? readSessionState(statePath).injected : [];
  const now = ctx.clock();
  const project = ctx.project();
  const injection = promptInjection(ctx.db(), {
    projectId: project.id,
    prompt: task,
    excludeIds: own,
    now,
    skip: quotedInTask(task, new Set(ctx.state.injected)),
    header: SUBAGENT_HEADER,
    ...writersOnly(hookScope(ctx.paths.config, ctx.agent)),
  });
  if (!injection) return null;
  if (statePath) updateSessionState(statePath, { addIds: injection.ids }, now);
  // like the prompt hook: the ids go to the session journal (no store write on this path);
  // folded into session_shown, they are judged after the session on what the subagent did
  recordInjectedTokens(ctx, ev.sessionId, project.id, injection.tokens, {
    ids: injection.ids,
    via: 'subagent',
  });
  return { additionalContext: injection.text };
}
