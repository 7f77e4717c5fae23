import type { Hono } from 'hono';
import { type DashboardContext, recordsDeps } from './context.js';
import { actOnItem, findItem, type ReviewAction, reviewQueue } from './core.js';
import { invalid } from './errors.js';
import { jsonBody, projectParam } from './params.js';

const ACTIONS: readonly ReviewAction[] = ['confirm', 'supersede', 'merge', 'dismiss', 'choose'];

function optionalText(v: unknown, field: string): string | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  if (typeof v !== 'string') throw invalid(`${field} must be a string`, field);
  return v;
}

/**
 * The Review view's routes: the queue of `agentctx review`, and one answer per POST through the
 * same services (core/review/actions.ts). The queue reads files under the project's root (the
 * team file; confirming re-reads linked files), so it is served for the project the dashboard
 * was started in, as the CLAUDE.md sync is.
 */
export function addReviewRoutes(api: Hono, ctx: DashboardContext): void {
  const queueFor = () =>
    reviewQueue({
      db: ctx.db,
      projectId: ctx.current.id,
      projectRoot: ctx.current.root,
      redact: ctx.redact,
      now: ctx.clock,
    });

  api.get('/review', (c) => {
    const projectId = projectParam(c, ctx);
    if (projectId !== ctx.current.id) {
      return c.json({
        available: false,
        reason:
          'The review queue is served for the project the dashboard was started in; run `agentctx ui` inside that repository.',
        items: [],
      });
    }
    return c.json({ available: true, items: queueFor() });
  });

  api.post('/review/act', async (c) => {
    const projectId = projectParam(c, ctx);
    if (projectId !== ctx.current.id)
      throw invalid('the review queue answers for the current project only', 'project');
    const body = await jsonBody(c);
    const key = optionalText(body.key, 'key');
    if (!key) throw invalid('key is required', 'key');
    const action = body.action as ReviewAction;
    if (!ACTIONS.includes(action)) throw invalid(`action must be one of ${ACTIONS.join(', ')}`, 'action');
    const item = findItem(queueFor(), key);
    const outcome = await actOnItem(
      {
        records: recordsDeps(ctx, ctx.current.id),
        projectRoot: ctx.current.root,
        ...(ctx.teamImport ? { teamImport: ctx.teamImport } : {}),
      },
      item,
      action,
      {
        body: optionalText(body.body, 'body'),
        rationale: optionalText(body.rationale, 'rationale'),
        title: optionalText(body.title, 'title'),
        version: optionalText(body.version, 'version'),
      },
    );
    return c.json(outcome);
  });
}
