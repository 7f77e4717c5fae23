import { existsSync, readFileSync } from 'node:fs';
import { agentSeen, ago } from '../../app/agent-seen.js';
import type { App } from '../../app/context.js';
import { findCodexCli, listHooksWithWarnings, openAppServer } from '../../codex/app-server.js';
import { hasTable, MCP_TABLE } from '../../codex/config-file.js';
import { CODEX_HOOK_SPECS, codexConfigPath, codexHome, codexHooksPath } from '../../codex/hooks-file.js';
import { codexInstalledHooks, ourCodexHooks } from '../../codex/install.js';
import { enabledCodexPlugin } from '../../codex/plugin-install.js';
import { errorMessage } from '../../shared/errors.js';
import { type Check, fail, ok, warn } from './check.js';

const FIX = 'run agentctx init --agent codex (it registers and trusts them through codex app-server)';

/**
 * Codex: agentctx's hooks registered in `$CODEX_HOME/hooks.json`, each one trusted by Codex
 * (asked through its own app server: a hook edited since init, or registered by hand, is
 * skipped by `codex exec` without a word), and the MCP server in config.toml. Null when Codex
 * is neither installed nor registered.
 */
export async function codexCheck(a: App): Promise<Check | null> {
  const registered = codexInstalledHooks(a.env);
  const events = Object.keys(registered);
  const codex = findCodexCli(a.env);
  if (events.length === 0) {
    if (!codex && !existsSync(codexHome(a.env))) return null;
    return ok(
      'codex',
      'codex',
      'Codex found; agentctx is not registered there (agentctx init --agent codex)',
    );
  }
  const configPath = codexConfigPath(a.env);
  let mcp = false;
  let plugin: string | null = null;
  try {
    const text = readFileSync(configPath, 'utf8');
    plugin = enabledCodexPlugin(text);
    // the plugin brings its own server (codex-mcp.json)
    mcp = plugin !== null || hasTable(text, MCP_TABLE);
  } catch {
    mcp = false;
  }
  const missing = CODEX_HOOK_SPECS.map((s) => s.event).filter((e) => !events.includes(e));
  const details = { hooks: codexHooksPath(a.env), config: configPath, events, mcp, plugin };
  if (!codex)
    return warn(
      'codex',
      'codex',
      `hooks registered for ${events.length} event(s); their trust cannot be checked: codex is not on PATH`,
      'put codex on PATH and run agentctx doctor again',
      details,
    );
  let server: Awaited<ReturnType<typeof openAppServer>> | undefined;
  try {
    server = await openAppServer(codex, { env: a.env, cwd: a.project.root });
    const listed = await listHooksWithWarnings(server, a.project.root);
    const ours = ourCodexHooks(listed.hooks, codexHooksPath(a.env));
    const untrusted = ours.filter((h) => h.trustStatus === 'untrusted' || h.trustStatus === 'modified');
    if (ours.length === 0)
      return fail(
        'codex',
        'codex',
        `Codex does not load agentctx's hooks${listed.warnings.length ? `: ${listed.warnings.join('; ')}` : ''}`,
        `fix ${codexHooksPath(a.env)}, then ${FIX}`,
        details,
      );
    if (untrusted.length > 0)
      return fail(
        'codex',
        'codex',
        `${untrusted.length} of ${ours.length} agentctx hook(s) registered but not trusted (Codex skips them): ${untrusted
          .map((h) => `${h.eventName} (${h.trustStatus})`)
          .join(', ')}`,
        FIX,
        { ...details, untrusted: untrusted.map((h) => h.key) },
      );
    if (!mcp || missing.length > 0)
      return warn(
        'codex',
        'codex',
        [
          missing.length ? `hooks missing for ${missing.join(', ')}` : '',
          mcp ? '' : 'no [mcp_servers.agentctx] in config.toml',
        ]
          .filter(Boolean)
          .join('; '),
        FIX,
        details,
      );
    const seen = agentSeen(a.paths, 'codex');
    const last = seen ? `last session ${ago(seen.at, a.clock())}` : 'no Codex session seen yet';
    return ok(
      'codex',
      'codex',
      plugin
        ? `${ours.length} hooks of the Codex plugin ${plugin} trusted; MCP server from the plugin; ${last}`
        : `${ours.length} hooks registered and trusted; MCP server in config.toml; ${last}`,
      {
        ...details,
        last_session: seen,
      },
    );
  } catch (err) {
    return warn(
      'codex',
      'codex',
      `could not ask codex app-server: ${errorMessage(err)}`,
      'run agentctx doctor again',
      details,
    );
  } finally {
    server?.close();
  }
}
