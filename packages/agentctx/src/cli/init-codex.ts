import { existsSync } from 'node:fs';
import { findCodexCli } from '../codex/app-server.js';
import { codexHome } from '../codex/hooks-file.js';
import {
  type CodexInstallReport,
  type CodexUninstallReport,
  installIntoCodex,
  uninstallFromCodex,
} from '../codex/install.js';

type Env = Record<string, string | undefined>;

/** Is Codex on this machine: its home folder, or the `codex` command on PATH? */
export function codexFound(env: Env): boolean {
  return existsSync(codexHome(env)) || findCodexCli(env) !== null;
}

export function codexInitLines(r: CodexInstallReport): string[] {
  const hooks = r.plugin
    ? `codex hooks: brought by the Codex plugin ${r.plugin} (nothing written to ${r.hooks.path})`
    : r.hooks.changed
      ? `codex hooks: ${[
          r.hooks.added.length ? `added ${r.hooks.added.join(', ')}` : '',
          r.hooks.updated.length ? `updated ${r.hooks.updated.join(', ')}` : '',
        ]
          .filter(Boolean)
          .join('; ')} (${r.hooks.path})`
      : `codex hooks: already set up (${r.hooks.path})`;
  const mcp = r.plugin
    ? `codex mcp server: brought by the Codex plugin ${r.plugin}`
    : `codex mcp server: ${r.mcp.changed ? 'added [mcp_servers.agentctx]' : 'already set up'} (${r.mcp.path})`;
  const t = r.trust;
  const trust =
    t.status === 'trusted'
      ? `codex hook trust: trusted ${t.keys.length} hook(s) through codex app-server, recorded in ${r.mcp.path}: ${t.keys.join(', ')}${t.codexFormatted ? ' (Codex rewrote the file in its own format)' : ''}`
      : t.status === 'already'
        ? 'codex hook trust: every agentctx hook is already trusted'
        : t.status === 'skipped'
          ? `codex hook trust: not done (${t.reason}); Codex skips untrusted hooks: run agentctx init --agent codex again with codex on PATH, or trust them in Codex (/hooks, then t)`
          : `codex hook trust: failed (${t.reason}); Codex skips untrusted hooks: fix what Codex reports, then run agentctx init --agent codex again`;
  return [hooks, mcp, trust];
}

export function codexUninstallLines(r: CodexUninstallReport): string[] {
  return [
    r.hooks.changed
      ? `codex hooks: removed ${r.hooks.removed.join(', ')} (${r.hooks.path}${r.hooks.deleted ? ', deleted: init created it' : ''})`
      : `codex hooks: none of ours in ${r.hooks.path}`,
    r.config.changed
      ? `codex config: removed ${r.config.removed.map((w) => (w === 'mcp' ? '[mcp_servers.agentctx]' : `trust of ${w}`)).join(', ')} (${r.config.path}${r.config.deleted ? ', deleted: init created it' : ''})`
      : `codex config: nothing of ours in ${r.config.path}`,
    ...(r.plugin
      ? [
          `codex plugin: ${r.plugin} stays installed (its hooks now untrusted): codex plugin remove ${r.plugin}`,
        ]
      : []),
  ];
}

export { installIntoCodex, uninstallFromCodex };
