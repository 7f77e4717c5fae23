import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { installRoot } from '../../app/detached.js';
import { AgentctxError } from '../../shared/errors.js';
import { num } from '../args.js';
import type { Command } from '../command.js';

/** The part of `@agentctxhq/agentctx-ui` this command uses. */
interface DashboardModule {
  startDashboard(opts: {
    cwd: string;
    env: Record<string, string | undefined>;
    port: number;
  }): Promise<{ url: string; port: number; close(): Promise<void> }>;
}

const UI_PACKAGE = '@agentctxhq/agentctx-ui';
const INSTALL_HINT = `the dashboard is a separate package; install it with: npm install -g ${UI_PACKAGE}`;

/** The dashboard's server bundle: the installed package, else the sibling workspace folder. */
function locateDashboard(override: string | undefined): string | null {
  if (override) return existsSync(override) ? override : null;
  try {
    return createRequire(import.meta.url).resolve(UI_PACKAGE);
  } catch {
    // not installed beside this CLI
  }
  const root = installRoot();
  const sibling = root ? join(root, '..', 'agentctx-ui', 'dist', 'server.js') : null;
  return sibling && existsSync(sibling) ? sibling : null;
}

/** Open the page in the default browser; a missing opener is not an error. */
function openBrowser(url: string): void {
  const [cmd, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  try {
    const child = spawn(cmd, args, { stdio: 'ignore', detached: true });
    child.on('error', () => {});
    child.unref();
  } catch {
    // no opener: the URL is printed
  }
}

function untilStopped(): Promise<string> {
  return new Promise((resolve) => {
    const stop = (signal: string) => {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      resolve(signal);
    };
    const onInt = () => stop('SIGINT');
    const onTerm = () => stop('SIGTERM');
    process.on('SIGINT', onInt);
    process.on('SIGTERM', onTerm);
  });
}

export const command: Command = {
  name: 'ui',
  summary: 'Open the dashboard: browse, search and correct what agentctx knows (127.0.0.1 only).',
  usage: 'agentctx ui [--port 7327] [--no-open]',
  group: 'everyday',
  line: 'open the dashboard on 127.0.0.1',
  options: {
    port: { kind: 'number', help: 'port to listen on (0: any free one)' },
    open: {
      kind: 'boolean',
      help: 'open the browser (--no-open: print the URL, with its access token, only)',
    },
  },
  examples: ['agentctx ui', 'agentctx ui --port 0 --no-open'],
  async run({ args, app, io, json }) {
    const a = app();
    const port = num(args.flags, 'port') ?? 7327;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new AgentctxError('usage', '--port must be a whole number from 0 to 65535');
    }
    const found = locateDashboard(a.env.AGENTCTX_UI_MODULE);
    if (!found) throw new AgentctxError('ui_missing', INSTALL_HINT);
    const mod = (await import(pathToFileURL(found).href)) as DashboardModule;
    let running: Awaited<ReturnType<DashboardModule['startDashboard']>>;
    try {
      running = await mod.startDashboard({ cwd: a.project.root, env: a.env, port });
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'EADDRINUSE') {
        throw new AgentctxError('usage', `port ${port} is in use; pass --port N (0 picks a free one)`);
      }
      throw err;
    }
    // The URL goes to stdout, except under --json where stdout is the one result object.
    const say = json ? io.stderr : io.stdout;
    say(`agentctx dashboard for ${a.project.name}: ${running.url}  (Ctrl-C stops it)`);
    if (args.flags.open !== false) openBrowser(running.url);
    const signal = await untilStopped();
    await running.close();
    return { json: { stopped: true, url: running.url, signal }, text: 'dashboard stopped' };
  },
};
