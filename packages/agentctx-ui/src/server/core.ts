/**
 * The agentctx core this dashboard runs on: the installed CLI package's declared export
 * `@agentctxhq/agentctx/ui-core`, never a copy of its sources (the build keeps it external). One
 * core, one set of migrations: a dashboard cannot migrate the store past what the CLI's hooks
 * read, and `coreMismatch` refuses a CLI of another version before anything is opened.
 */
import { VERSION } from '@agentctxhq/agentctx/ui-core';

export * from '@agentctxhq/agentctx/ui-core';

declare const __AGENTCTX_UI_VERSION__: string | undefined;

/** This dashboard's version: its package.json's at build time (the sources run as the core's). */
const UI_VERSION: string = typeof __AGENTCTX_UI_VERSION__ === 'string' ? __AGENTCTX_UI_VERSION__ : VERSION;

/** Why this dashboard cannot run on the installed agentctx, or null when their versions match. */
export function coreMismatch(core: string = VERSION, ui: string = UI_VERSION): string | null {
  if (core === ui) return null;
  return `the dashboard ${ui} runs on agentctx ${ui} only, and this agentctx is ${core}; install the same version of both: npm install -g @agentctxhq/agentctx@${ui} @agentctxhq/agentctx-ui@${ui}`;
}
