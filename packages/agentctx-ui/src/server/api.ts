import { Hono } from 'hono';
import { type DashboardContext, recordsDeps } from './context.js';
import {
  AgentctxError,
  CONFIDENCES,
  type ContextRecord,
  driftReport,
  GLOBAL_PROJECT,
  listRecords,
  listSessions,
  namespacesOf,
  projectTaxShare,
  RECORD_TYPES,
  type RedactionReport,
  reinforceRecord,
  requireVisible,
  resetNamespace,
  search,
  sessionTaxShare,
  sessionTotals,
  setPinned,
  staleFilesOf,
  staleLabel,
  supersedeRecord,
  supersessionChain,
  VERSION,
} from './core.js';
import { errorResponse, invalid } from './errors.js';
import { graphFor } from './graph-data.js';
import {
  confidenceParam,
  flagParam,
  jsonBody,
  limitParam,
  projectParam,
  type ScopeFilter,
  scopeParam,
  typesParam,
} from './params.js';
import { listProjects } from './projects.js';
import { addReviewRoutes } from './review.js';
import { TOKEN_HEADER } from './security.js';

function namespacesForScope(projectId: string, scope: ScopeFilter): string[] {
  if (scope === 'global') return [GLOBAL_PROJECT];
  if (scope === 'project') return [projectId];
  return namespacesOf(projectId);
}

function filesOf(ctx: DashboardContext, recordId: string): string[] {
  const rows = ctx.db
    .prepare(
      `SELECT n.name FROM record_entities re JOIN nodes n ON n.id = re.entity_id
       WHERE re.record_id = ? AND n.kind = 'file' ORDER BY n.name LIMIT 100`,
    )
    .all(recordId) as { name: string }[];
  return rows.map((r) => r.name.slice(r.name.indexOf(':', r.name.indexOf(':') + 1) + 1));
}

/** Each current record whose linked files changed since is labelled: never shown as if current. */
function withStale<T extends ContextRecord>(ctx: DashboardContext, rows: T[]): (T & { stale?: string })[] {
  const stale = staleFilesOf(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((r) => {
    const files = stale.get(r.id);
    return files ? { ...r, stale: staleLabel(files) } : r;
  });
}

function text(v: unknown, field: string, opts: { optional?: boolean } = {}): string | undefined {
  if (v === undefined || v === null || v === '') {
    if (opts.optional) return undefined;
    throw invalid(`${field} is required`, field);
  }
  if (typeof v !== 'string') throw invalid(`${field} must be a string`, field);
  return v;
}

/** The JSON routes under /api. Reads and writes go through the agentctx core services. */
export function createApi(ctx: DashboardContext): Hono {
  const api = new Hono();
  api.onError((err, c) => errorResponse(c, err));

  api.get('/meta', (c) =>
    c.json({
      version: VERSION,
      current: { id: ctx.current.id, name: ctx.current.name, root: ctx.current.root },
      types: RECORD_TYPES,
      confidences: CONFIDENCES,
      token_header: TOKEN_HEADER,
    }),
  );

  api.get('/projects', (c) => {
    ctx.foldJournals?.();
    return c.json({ projects: listProjects(ctx.db, ctx.current) });
  });

  api.get('/records', (c) => {
    const projectId = projectParam(c, ctx);
    const types = typesParam(c);
    const scope = scopeParam(c);
    const confidence = confidenceParam(c);
    const history = flagParam(c, 'history');
    const limit = limitParam(c, 100, 500);
    const q = (c.req.query('q') ?? '').trim();
    const keep = (r: ContextRecord) =>
      (!confidence || r.confidence === confidence) &&
      namespacesForScope(projectId, scope).includes(r.project_id);
    if (q) {
      const res = search(ctx.db, {
        projectId,
        query: q,
        types,
        scope: scope === 'global' ? 'global' : 'project',
        history,
        limit: 50,
        now: ctx.clock(),
      });
      const hits = res.hits.filter((h) => keep(h.record)).slice(0, limit);
      return c.json({
        query: q,
        degraded: res.degraded ?? null,
        records: withStale(
          ctx,
          hits.map((h) => ({ ...h.record, match: { score: h.score, coverage: h.coverage } })),
        ),
      });
    }
    const rows = listRecords(ctx.db, {
      namespaces: namespacesForScope(projectId, scope),
      types,
      history,
      limit: confidence ? 2000 : limit,
    });
    return c.json({
      query: null,
      degraded: null,
      records: withStale(ctx, rows.filter(keep).slice(0, limit)),
    });
  });

  api.get('/records/:id', (c) => {
    const projectId = projectParam(c, ctx);
    const record = requireVisible(recordsDeps(ctx, projectId), c.req.param('id'));
    const visible = namespacesOf(projectId);
    const chain = supersessionChain(ctx.db, record.id).filter((r) => visible.includes(r.project_id));
    const stale = staleFilesOf(ctx.db, [record.id]).get(record.id);
    return c.json({ record, chain, files: filesOf(ctx, record.id), stale: stale ? staleLabel(stale) : null });
  });

  api.post('/records/:id/supersede', async (c) => {
    const projectId = projectParam(c, ctx);
    const body = await jsonBody(c);
    const reports: RedactionReport[] = [];
    const deps = { ...recordsDeps(ctx, projectId), onRedacted: (r: RedactionReport) => reports.push(r) };
    const res = supersedeRecord(deps, c.req.param('id'), {
      title: text(body.title, 'title', { optional: true }),
      body: text(body.body, 'body'),
      rationale: text(body.rationale, 'rationale', { optional: true }),
      source: 'cli',
      confidence: 'explicit',
    });
    // what the redaction gate took out: kinds and counts, never the values
    return c.json(reports[0] ? { ...res, redacted: reports[0] } : res);
  });

  api.post('/records/:id/pin', async (c) => {
    const projectId = projectParam(c, ctx);
    const body = await jsonBody(c);
    if (typeof body.pinned !== 'boolean') throw invalid('pinned must be true or false', 'pinned');
    return c.json({ record: setPinned(recordsDeps(ctx, projectId), c.req.param('id'), body.pinned) });
  });

  api.post('/records/:id/confidence', async (c) => {
    const projectId = projectParam(c, ctx);
    const body = await jsonBody(c);
    const deps = recordsDeps(ctx, projectId);
    const current = requireVisible(deps, c.req.param('id'));
    if (body.confidence !== 'reinforced') {
      throw invalid(
        'confidence only moves from inferred to reinforced; supersede a record that is wrong',
        'confidence',
      );
    }
    if (current.confidence !== 'inferred') {
      throw new AgentctxError('invalid_input', `record ${current.id} is already ${current.confidence}`, {
        field: 'confidence',
      });
    }
    return c.json({ record: reinforceRecord(deps, current.id, true) });
  });

  api.get('/profile', (c) => {
    const records = listRecords(ctx.db, { namespaces: [GLOBAL_PROJECT] });
    return c.json({ records });
  });

  api.post('/profile/clear', async (c) => {
    const body = await jsonBody(c);
    if (body.confirm !== true) throw invalid('send {"confirm": true} to clear the global profile', 'confirm');
    return c.json(resetNamespace(ctx.db, GLOBAL_PROJECT));
  });

  api.get('/sessions', (c) => {
    const projectId = projectParam(c, ctx);
    const limit = limitParam(c, 200, 1000);
    ctx.foldJournals?.(); // lines the hooks journaled since the last Stop count too
    // each session's injected tokens that went to records it used (judged after the session)
    const sessions = listSessions(ctx.db, projectId, limit).map((s) => ({
      ...s,
      usage: usageOf(sessionTaxShare(ctx.db, s.session_id)),
    }));
    const totals = {
      ...sessionTotals(ctx.db, projectId),
      usage: usageOf(projectTaxShare(ctx.db, projectId, '')),
    };
    return c.json({ totals, sessions });
  });

  api.get('/graph', (c) => {
    const projectId = projectParam(c, ctx);
    return c.json(graphFor(ctx.db, projectId, flagParam(c, 'history')));
  });

  api.get('/sync', (c) => {
    const projectId = projectParam(c, ctx);
    if (projectId !== ctx.current.id) {
      return c.json({
        available: false,
        reason:
          'CLAUDE.md drift is checked in the project the dashboard was started in; run `agentctx ui` inside that repository.',
      });
    }
    const report = driftReport(
      ctx.db,
      { id: ctx.current.id, root: ctx.current.root },
      {
        now: ctx.clock(),
        limit: 50,
      },
    );
    return c.json({ available: true, root: ctx.current.root, report });
  });

  addReviewRoutes(api, ctx);
  return api;
}

/** Tokens on shown records, those that went to used ones, those not judged yet, and the share used. */
function usageOf(t: { injected: number; used: number; unjudged: number }) {
  const judged = t.injected - t.unjudged;
  return {
    tokens_on_records: Math.round(t.injected),
    tokens_used: Math.round(t.used),
    tokens_not_judged: Math.round(t.unjudged),
    used_share: judged > 0 ? Math.round((t.used / judged) * 1000) / 1000 : null,
  };
}
