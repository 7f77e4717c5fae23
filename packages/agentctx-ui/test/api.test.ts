import { join } from 'node:path';
import fc from 'fast-check';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { appendJournal } from '../../agentctx/src/files/session-journal.js';
import { createDashboardApp } from '../src/server/app.js';
import { type App, createApp } from '../src/server/core.js';
import { contextFromApp, newToken } from '../src/server/start.js';
import { type Seeded, seedStore } from './support/seed.js';

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, checked field by field
type J = any;

const PORT = 7399;
const HOST = `127.0.0.1:${PORT}`;

let seed: Seeded;
let core: App;
let app: Hono;
let token: string;

/** A read as the page sends it: the token in its header (pass `'x-agentctx-token': ''` to leave it out). */
function get(path: string, headers: Record<string, string> = {}) {
  return app.request(path, { headers: { host: HOST, 'x-agentctx-token': token, ...headers } });
}

function post(path: string, body: unknown, headers: Record<string, string> = {}) {
  return app.request(path, {
    method: 'POST',
    headers: { host: HOST, 'content-type': 'application/json', 'x-agentctx-token': token, ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

async function json<T = J>(res: Response | Promise<Response>): Promise<T> {
  return (await (await res).json()) as T;
}

function fresh(): void {
  core?.close();
  seed?.cleanup();
  seed = seedStore();
  core = createApp({ cwd: seed.repo, env: seed.env });
  token = newToken();
  app = createDashboardApp(contextFromApp(core, { token, port: () => PORT }));
}

beforeAll(fresh);
afterAll(() => {
  core.close();
  seed.cleanup();
});

describe('security', () => {
  it('answers only to the loopback Host names with its own port', async () => {
    expect((await get('/api/meta')).status).toBe(200);
    expect((await get('/api/meta', { host: `localhost:${PORT}` })).status).toBe(200);
    for (const host of [
      'evil.example:7399',
      `attacker.test:${PORT}`,
      `localhost:${PORT + 1}`,
      '127.0.0.1',
      'localhost',
    ]) {
      const res = await get('/api/meta', { host });
      expect(res.status, host).toBe(403);
      expect((await json(res)).error.code).toBe('forbidden');
    }
    expect((await app.request('/api/meta')).status).toBe(403); // no Host at all
    expect((await get('/', { host: 'rebind.example:7399' })).status).toBe(403);
  });

  it('refuses requests a browser marks cross-site, reads included', async () => {
    expect((await get('/api/projects', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await get('/', { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(
      (
        await post(
          `/api/records/${seed.ids.sqlite}/pin`,
          { pinned: true },
          { 'sec-fetch-site': 'cross-site' },
        )
      ).status,
    ).toBe(403);
    expect((await get('/api/projects', { 'sec-fetch-site': 'same-origin' })).status).toBe(200);
    expect((await get('/api/projects', { 'sec-fetch-site': 'none' })).status).toBe(200);
  });

  it('requires the start-up token on every write', async () => {
    const writes: [string, unknown][] = [
      [`/api/records/${seed.ids.sqlite}/pin`, { pinned: true }],
      [`/api/records/${seed.ids.sqlite}/supersede`, { body: 'x' }],
      [`/api/records/${seed.ids.retry}/confidence`, { confidence: 'reinforced' }],
      ['/api/profile/clear', { confirm: true }],
    ];
    for (const [path, body] of writes) {
      const none = await app.request(path, {
        method: 'POST',
        headers: { host: HOST, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(none.status, path).toBe(403);
      expect((await post(path, body, { 'x-agentctx-token': `${token.slice(0, -1)}x` })).status).toBe(403);
      expect((await post(path, body, { 'x-agentctx-token': 'short' })).status).toBe(403);
    }
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await app.request(`/api/records/${seed.ids.sqlite}`, { method, headers: { host: HOST } });
      expect(res.status, method).toBe(403);
    }
    // nothing was changed by the refused writes
    const detail = await json(get(`/api/records/${seed.ids.sqlite}`));
    expect(detail.record.pinned).toBe(0);
    expect(detail.record.superseded_at).toBeNull();
    expect((await json(get('/api/profile'))).records).toHaveLength(1);
  });

  it('requires the start-up token on every read: none, a wrong one or a spoofed Host gets 403 and no data', async () => {
    const reads = [
      '/',
      '/index.html',
      '/assets/app.js',
      '/api/meta',
      '/api/projects',
      `/api/records?project=${seed.projectId}`,
      `/api/records/${seed.ids.sqlite}`,
      '/api/review',
      '/api/profile',
      '/api/sessions',
      '/api/graph',
      '/api/sync',
    ];
    const secrets = (body: string) =>
      body.includes(token) || body.includes(seed.ids.sqlite) || body.includes('Indent with two spaces');
    // what a local account without the token can send: no token, any wrong one, in the header or the URL
    const wrongToken = fc.oneof(
      fc.string({ maxLength: 40 }),
      fc.stringMatching(/^[A-Za-z0-9_-]{32}$/),
      fc
        .nat({ max: 31 })
        .map((i) => `${token.slice(0, i)}${token[i] === 'A' ? 'B' : 'A'}${token.slice(i + 1)}`),
      fc.constant(token.slice(0, -1)),
      fc.constant(`${token}x`),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...reads),
        fc.option(wrongToken, { nil: undefined }),
        fc.boolean(),
        async (path, given, inUrl) => {
          const headers: Record<string, string> = { host: HOST };
          let url = path;
          if (given !== undefined && given !== token) {
            if (inUrl) url += `${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(given)}`;
            else if (/^[\x21-\x7e]*$/.test(given)) headers['x-agentctx-token'] = given;
          }
          const res = await app.request(url, { headers });
          expect(res.status, url).toBe(403);
          expect(secrets(await res.text())).toBe(false);
        },
      ),
      { numRuns: 150 },
    );
    for (const path of reads) {
      // the right token, in the header or in the URL, but a spoofed Host: still refused
      for (const host of ['evil.example', `evil.example:${PORT}`, `127.0.0.1:${PORT + 1}`]) {
        const res = await get(path, { host });
        expect(res.status, `${host} ${path}`).toBe(403);
        expect(secrets(await res.text())).toBe(false);
      }
      const viaUrl = `${path}${path.includes('?') ? '&' : '?'}token=${token}`;
      expect((await app.request(viaUrl, { headers: { host: `evil.example:${PORT}` } })).status).toBe(403);
      // and with the right Host: served, whichever way the token came
      expect((await get(path)).status, path).toBe(200);
      expect((await app.request(viaUrl, { headers: { host: HOST } })).status, viaUrl).toBe(200);
    }
    // a write takes the token only from its header: one in the URL is not enough
    const write = await app.request(`/api/records/${seed.ids.sqlite}/pin?token=${token}`, {
      method: 'POST',
      headers: { host: HOST, 'content-type': 'application/json' },
      body: JSON.stringify({ pinned: true }),
    });
    expect(write.status).toBe(403);
    expect((await json(get(`/api/records/${seed.ids.sqlite}`))).record.pinned).toBe(0);
  });

  it('sets no cookies and no CORS headers, and refuses preflights', async () => {
    const responses = [
      await get('/'),
      await get('/api/projects', { origin: 'https://evil.example' }),
      await post(
        `/api/records/${seed.ids.bugfix}/pin`,
        { pinned: false },
        { origin: 'https://evil.example' },
      ),
      await get('/api/meta', { host: 'evil.example' }),
    ];
    const preflight = await app.request('/api/records/x/pin', {
      method: 'OPTIONS',
      headers: {
        host: HOST,
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-agentctx-token',
      },
    });
    expect(preflight.status).toBe(403);
    for (const res of [...responses, preflight]) {
      expect(res.headers.get('set-cookie')).toBeNull();
      for (const name of res.headers.keys()) expect(name.startsWith('access-control-')).toBe(false);
    }
  });

  it('embeds the token in the served page, with a strict content security policy', async () => {
    const res = await get('/');
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(`<meta name="agentctx-token" content="${token}"`);
    // the page's own assets are loaded with the token too: no request goes without it
    expect(html).toContain(`src="/assets/app.js?token=${token}"`);
    expect(html).toContain(`href="/assets/app.css?token=${token}"`);
    expect(html).not.toContain('__AGENTCTX_TOKEN__');
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    const js = await get('/assets/app.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toContain('text/javascript');
    expect((await get('/assets/app.css')).headers.get('content-type')).toContain('text/css');
    expect((await get('/assets/nope.js')).status).toBe(404);
    expect((await get('/assets/..%2F..%2Fserver.js')).status).toBe(404);
    expect((await get('/assets/%2e%2e%2fserver.js')).status).toBe(404);
  });
});

describe('read routes', () => {
  it('GET /api/meta names the current project and the vocabularies', async () => {
    const m = await json(get('/api/meta'));
    expect(m.current).toMatchObject({ id: seed.projectId, name: 'shop', root: seed.repo });
    expect(m.types).toContain('decision');
    expect(m.confidences).toEqual(['explicit', 'inferred', 'reinforced']);
    expect(m.token_header).toBe('x-agentctx-token');
    expect(JSON.stringify(m)).not.toContain(token);
  });

  it('GET /api/projects lists every namespace with counts and last activity', async () => {
    const { projects } = await json(get('/api/projects'));
    const byId = new Map<string, J>(projects.map((p: J) => [p.id, p]));
    expect(projects[0].id).toBe(seed.projectId);
    expect(byId.get(seed.projectId)).toMatchObject({
      label: 'shop',
      current: true,
      records: 5,
      superseded: 1,
      sessions: 4,
      last_activity: expect.any(String),
    });
    expect(byId.get(seed.projectId).counts_by_type).toMatchObject({ decision: 1, convention: 1, profile: 1 });
    expect(byId.get('_global')).toMatchObject({ label: 'Global profile', global: true, records: 1 });
    expect(byId.get(seed.otherProjectId)).toMatchObject({ records: 1, sessions: 1, current: false });
    expect(byId.get(seed.otherProjectId).label).toBe(`project ${seed.otherProjectId.slice(0, 12)}`);
  });

  it('GET /api/records lists current records of the project and the global profile', async () => {
    const { records } = await json(get('/api/records'));
    const ids = records.map((r: J) => r.id);
    expect(ids).toContain(seed.ids.tabs);
    expect(ids).toContain(seed.ids.globalPref);
    expect(ids).not.toContain(seed.ids.oldTabs);
    expect(ids).not.toContain(seed.ids.otherDecision);
    const hist = (await json(get('/api/records?history=1'))).records.map((r: J) => r.id);
    expect(hist).toContain(seed.ids.oldTabs);
  });

  it('GET /api/records filters by type, scope and confidence', async () => {
    const types = (await json(get('/api/records?type=decision,bugfix'))).records.map((r: J) => r.type);
    expect(new Set(types)).toEqual(new Set(['decision', 'bugfix']));
    const global = (await json(get('/api/records?scope=global'))).records.map((r: J) => r.id);
    expect(global).toEqual([seed.ids.globalPref]);
    const project = (await json(get('/api/records?scope=project'))).records.map((r: J) => r.id);
    expect(project).not.toContain(seed.ids.globalPref);
    expect(project).toContain(seed.ids.sqlite);
    const inferred = (await json(get('/api/records?confidence=inferred'))).records.map((r: J) => r.id);
    expect(new Set(inferred)).toEqual(new Set([seed.ids.retry, seed.ids.bugfix, seed.ids.globalPref]));
    expect((await get('/api/records?type=nonsense')).status).toBe(400);
    expect((await get('/api/records?scope=everything')).status).toBe(400);
    expect((await get('/api/records?confidence=sure')).status).toBe(400);
    expect((await get('/api/records?limit=0')).status).toBe(400);
    expect((await get('/api/records?project=../../etc')).status).toBe(400);
  });

  it('GET /api/records?q= runs the retrieval engine, history only on request', async () => {
    const hit = await json(get('/api/records?q=webhook+retries'));
    expect(hit.records[0].id).toBe(seed.ids.retry);
    expect(hit.records[0].match.score).toBe(1);
    expect((await json(get('/api/records?q=tabs'))).records).toHaveLength(0);
    const old = (await json(get('/api/records?q=tabs&history=1'))).records.map((r: J) => r.id);
    expect(old).toEqual([seed.ids.oldTabs]);
    const typed = (await json(get('/api/records?q=webhook&type=decision'))).records;
    expect(typed).toHaveLength(0);
    const other = await json(get(`/api/records?q=invoice&project=${seed.otherProjectId}`));
    expect(other.records.map((r: J) => r.id)).toEqual([seed.ids.otherDecision]);
    expect((await json(get('/api/records?q=invoice'))).records).toHaveLength(0);
  });

  it('GET /api/records/:id returns the record, its supersession chain and files', async () => {
    const d = await json(get(`/api/records/${seed.ids.oldTabs}`));
    expect(d.record.superseded_by).toBe(seed.ids.tabs);
    expect(d.chain.map((r: J) => r.id)).toEqual([seed.ids.oldTabs, seed.ids.tabs]);
    const s = await json(get(`/api/records/${seed.ids.sqlite}`));
    expect(s.files).toEqual(['src/storage/migrations.ts', 'src/storage/open.ts']);
    expect(s.chain).toHaveLength(1);
    const foreign = await get(`/api/records/${seed.ids.otherDecision}`);
    expect(foreign.status).toBe(404);
    expect((await json(foreign)).error.code).toBe('not_found');
    expect((await get(`/api/records/${seed.ids.otherDecision}?project=${seed.otherProjectId}`)).status).toBe(
      200,
    );
  });

  it('GET /api/profile lists the global preferences with confidence and reinforcement', async () => {
    const { records } = await json(get('/api/profile'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ id: seed.ids.globalPref, confidence: 'inferred', reinforce_count: 0 });
  });

  it('GET /api/sessions reports tokens injected and extraction cost', async () => {
    const s = await json(get('/api/sessions'));
    expect(s.totals.sessions).toBe(4);
    expect(s.totals.tokens_injected).toBe(600 + 850 + 1100 + 1350);
    expect(s.totals.extraction_cost_usd).toBeCloseTo(0.012 + 0.013 + 0.014 + 0.015, 6);
    expect(s.sessions.map((x: J) => x.session_id)).toEqual([
      'session-4',
      'session-3',
      'session-2',
      'session-1',
    ]);
    const other = await json(get(`/api/sessions?project=${seed.otherProjectId}`));
    expect(other.totals).toMatchObject({ sessions: 1, tokens_injected: 420 });
    // usage evidence: per session, the injected tokens that went to records it used
    const usage = Object.fromEntries(s.sessions.map((x: J) => [x.session_id, x.usage]));
    expect(usage['session-1']).toEqual({
      tokens_on_records: 600,
      tokens_used: 200,
      tokens_not_judged: 0,
      used_share: 0.333,
    });
    expect(usage['session-3'].used_share).toBe(0);
    expect(usage['session-4']).toMatchObject({ tokens_not_judged: 1350, used_share: null });
    expect(s.totals.usage).toMatchObject({ tokens_used: 767, tokens_not_judged: 1350, used_share: 0.301 });
    expect(other.totals.usage.used_share).toBeNull();
  });

  it('GET /api/sessions counts what the hooks journaled since the last fold, once', async () => {
    const at = new Date().toISOString();
    const journal = (session: string, tokens: number) =>
      appendJournal(join(core.paths.journal, `${session}.jsonl`), {
        kind: 'tokens',
        sessionId: session,
        projectId: seed.otherProjectId,
        tokens,
        at,
      });
    journal('other-live', 55);
    journal('other-live', 45);
    for (let i = 0; i < 2; i++) {
      const other = await json(get(`/api/sessions?project=${seed.otherProjectId}`));
      expect(other.totals).toMatchObject({ sessions: 2, tokens_injected: 420 + 100 });
      expect(other.sessions[0]).toMatchObject({ session_id: 'other-live', tokens_injected: 100 });
    }
    fresh();
  });

  it('GET /api/graph links records to files and, with history, to what they superseded', async () => {
    const g = await json(get('/api/graph'));
    const ids = g.nodes.map((n: J) => n.id);
    expect(ids).toContain(seed.ids.sqlite);
    expect(ids).not.toContain(seed.ids.oldTabs);
    const files = g.nodes.filter((n: J) => n.kind === 'file').map((n: J) => n.label);
    expect(files.sort()).toEqual([
      'biome.json',
      'src/cart/cart.ts',
      'src/payments/webhook.ts',
      'src/storage/migrations.ts',
      'src/storage/open.ts',
    ]);
    expect(g.links.filter((l: J) => l.kind === 'file' && l.source === seed.ids.sqlite)).toHaveLength(2);
    expect(g.links.some((l: J) => l.kind === 'supersedes')).toBe(false);
    const h = await json(get('/api/graph?history=1'));
    expect(h.links).toContainEqual({ source: seed.ids.tabs, target: seed.ids.oldTabs, kind: 'supersedes' });
    expect(h.nodes.find((n: J) => n.id === seed.ids.oldTabs).superseded).toBe(true);
  });

  it('GET /api/sync runs the drift report for the current project only', async () => {
    const s = await json(get('/api/sync'));
    expect(s.available).toBe(true);
    expect(s.report.files).toEqual(['CLAUDE.md']);
    expect(s.report.missing.map((m: J) => m.record_id)).toContain(seed.ids.sqlite);
    expect(s.report.contradicted.map((m: J) => m.record_id)).toContain(seed.ids.oldTabs);
    expect(s.report.proposed_diff).toContain('CLAUDE.md');
    const other = await json(get(`/api/sync?project=${seed.otherProjectId}`));
    expect(other.available).toBe(false);
  });

  it('unknown API routes answer 404 in JSON', async () => {
    const res = await get('/api/nothing');
    expect(res.status).toBe(404);
    expect((await json(res)).error.code).toBe('not_found');
  });
});

describe('write routes', () => {
  beforeEach(fresh);

  it('POST supersede replaces a record through the core service', async () => {
    const res = await post(`/api/records/${seed.ids.sqlite}/supersede`, {
      title: 'Store context in SQLite (WAL, busy timeout)',
      body: 'One SQLite file in WAL mode with a 10 s busy timeout.',
      rationale: 'hooks collided without a timeout',
    });
    expect(res.status).toBe(200);
    const out = await json(res);
    expect(out.old_id).toBe(seed.ids.sqlite);
    expect(out.record).toMatchObject({ type: 'decision', confidence: 'explicit', source: 'cli' });
    expect(out.record.body).toContain('Why it changed: hooks collided without a timeout');
    const old = await json(get(`/api/records/${seed.ids.sqlite}`));
    expect(old.record.superseded_by).toBe(out.new_id);
    expect(old.chain.map((r: J) => r.id)).toEqual([seed.ids.sqlite, out.new_id]);
    const again = await post(`/api/records/${seed.ids.sqlite}/supersede`, { body: 'again' });
    expect(again.status).toBe(409);
    expect((await json(again)).error.details.current_head).toBe(out.new_id);
    expect((await post(`/api/records/${out.new_id}/supersede`, {})).status).toBe(400);
    expect((await post(`/api/records/${out.new_id}/supersede`, 'not json')).status).toBe(400);
    expect((await post(`/api/records/${out.new_id}/supersede`, [1, 2])).status).toBe(400);
    expect((await post(`/api/records/${seed.ids.otherDecision}/supersede`, { body: 'x' })).status).toBe(404);
  });

  it('POST pin pins and unpins', async () => {
    const on = await json(post(`/api/records/${seed.ids.retry}/pin`, { pinned: true }));
    expect(on.record.pinned).toBe(1);
    const off = await json(post(`/api/records/${seed.ids.retry}/pin`, { pinned: false }));
    expect(off.record.pinned).toBe(0);
    expect((await post(`/api/records/${seed.ids.retry}/pin`, { pinned: 'yes' })).status).toBe(400);
    expect((await post('/api/records/01NOPE/pin', { pinned: true })).status).toBe(404);
  });

  it('POST confidence confirms an inferred record, one way only', async () => {
    const res = await json(post(`/api/records/${seed.ids.retry}/confidence`, { confidence: 'reinforced' }));
    expect(res.record).toMatchObject({ confidence: 'reinforced', reinforce_count: 1 });
    expect(
      (await post(`/api/records/${seed.ids.retry}/confidence`, { confidence: 'reinforced' })).status,
    ).toBe(400);
    expect(
      (await post(`/api/records/${seed.ids.bugfix}/confidence`, { confidence: 'explicit' })).status,
    ).toBe(400);
    expect(
      (await post(`/api/records/${seed.ids.sqlite}/confidence`, { confidence: 'inferred' })).status,
    ).toBe(400);
    const bug = await json(get(`/api/records/${seed.ids.bugfix}`));
    expect(bug.record.confidence).toBe('inferred');
  });

  it('POST supersede edits a global preference (project _global)', async () => {
    const res = await json(
      post(`/api/records/${seed.ids.globalPref}/supersede?project=_global`, {
        body: 'Squash fixups before pushing.',
      }),
    );
    expect(res.record.project_id).toBe('_global');
    expect(res.record.scope).toBe('global');
    const { records } = await json(get('/api/profile'));
    expect(records.map((r: J) => r.id)).toEqual([res.new_id]);
  });

  it('POST /api/profile/clear needs an explicit confirmation and clears only the global profile', async () => {
    expect((await post('/api/profile/clear', {})).status).toBe(400);
    expect((await json(get('/api/profile'))).records).toHaveLength(1);
    const res = await json(post('/api/profile/clear', { confirm: true }));
    expect(res.records).toBe(1);
    expect((await json(get('/api/profile'))).records).toHaveLength(0);
    expect((await json(get('/api/records?scope=project'))).records.length).toBeGreaterThan(0);
  });
});
