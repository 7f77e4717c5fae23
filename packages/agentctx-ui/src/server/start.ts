import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createDashboardApp } from './app.js';
import type { DashboardContext } from './context.js';
import {
  AgentctxError,
  type App,
  type AppOptions,
  coreMismatch,
  createApp,
  foldJournals,
  parseTeamFile,
  readTeamFile,
  runTeamImport,
  teamFilePath,
} from './core.js';
import { TOKEN_PARAM } from './security.js';

export const DEFAULT_PORT = 7327;
export const HOST = '127.0.0.1';

export interface StartOptions extends AppOptions {
  /** 0 picks a free port. */
  port?: number;
  /** The built SPA; defaults to the `web` folder beside the server bundle. */
  webDir?: string;
  /** The version this dashboard was built as (default: its package.json's); tests vary it. */
  uiVersion?: string;
}

export interface RunningDashboard {
  /** The URL to open: the origin with `?token=` (every request needs the token). */
  url: string;
  /** `http://127.0.0.1:<port>/`, without the token. */
  origin: string;
  port: number;
  token: string;
  projectId: string;
  close(): Promise<void>;
}

function defaultWebDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'web'), join(here, '..', '..', 'dist', 'web')];
  return candidates.find((d) => existsSync(join(d, 'index.html'))) ?? candidates[0]!;
}

/** A fresh start-up secret: 192 random bits. */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** The routes' context from the agentctx composition root (opens the store). */
export function contextFromApp(
  core: App,
  opts: { token: string; port: () => number; webDir?: string },
): DashboardContext {
  return {
    db: core.db,
    clock: core.clock,
    newId: core.newId,
    current: core.project,
    reinforceThreshold: core.config.reinforceThreshold,
    redact: core.redact,
    token: opts.token,
    port: opts.port,
    webDir: opts.webDir ?? defaultWebDir(),
    foldJournals: () => {
      foldJournals(core.db, core.paths, core.clock);
    },
    teamImport: async () => {
      const text = readTeamFile(teamFilePath(core.project.root));
      if (text === null) throw new AgentctxError('not_found', 'no .agentctx/context.md to import');
      const res = await runTeamImport(core, {
        parsed: parseTeamFile(text),
        text,
        inRepo: true,
        closeRemoved: true,
      });
      return { ...res.report, digest_refreshed: res.digest_refreshed };
    },
  };
}

/**
 * Open the store through the agentctx composition root and serve the dashboard on 127.0.0.1.
 * Resolves once listening; rejects (with the store closed) when the port cannot be bound.
 */
export async function startDashboard(opts: StartOptions = {}): Promise<RunningDashboard> {
  // before the store is opened: another version's core could migrate it, or refuse its schema
  const mismatch = coreMismatch(undefined, opts.uiVersion);
  if (mismatch) throw new AgentctxError('version_mismatch', mismatch);
  const core = createApp(opts);
  let port = opts.port ?? DEFAULT_PORT;
  const ctx = contextFromApp(core, { token: newToken(), port: () => port, webDir: opts.webDir });
  const app = createDashboardApp(ctx);
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: HOST, port }, (info: AddressInfo) => {
      port = info.port;
      resolve(s);
    });
    s.once('error', (err) => {
      core.close();
      reject(err);
    });
  });
  let closed = false;
  return {
    url: `http://${HOST}:${port}/?${TOKEN_PARAM}=${ctx.token}`,
    origin: `http://${HOST}:${port}/`,
    port,
    token: ctx.token,
    projectId: core.project.id,
    close: () =>
      new Promise<void>((resolve) => {
        if (closed) return resolve();
        closed = true;
        server.close(() => {
          core.close();
          resolve();
        });
        // Browsers keep idle connections open; do not wait for them.
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      }),
  };
}
