import { Hono } from 'hono';
import { createApi } from './api.js';
import { bodyLimit } from './body-limit.js';
import type { DashboardContext } from './context.js';
import { guard } from './security.js';
import { mountStatic } from './static-files.js';

/** The whole dashboard as a Hono app: the guard and the body limit on every request, the API, the built page. */
export function createDashboardApp(ctx: DashboardContext): Hono {
  const app = new Hono();
  app.use('*', guard({ token: ctx.token, port: ctx.port }));
  // after the guard: a write without the token is refused before a byte of its body is read
  app.use('*', bodyLimit());
  app.route('/api', createApi(ctx));
  mountStatic(app, ctx.webDir, ctx.token);
  app.notFound((c) =>
    c.req.path.startsWith('/api/')
      ? c.json({ error: { code: 'not_found', message: 'no such route' } }, 404)
      : c.text('not found', 404),
  );
  return app;
}
