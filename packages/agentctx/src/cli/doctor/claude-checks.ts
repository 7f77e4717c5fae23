import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { App } from '../../app/context.js';
import { installedBinPath } from '../../app/detached.js';
import { claudeJsonPath, mcpState } from '../../claude/mcp-registration.js';
import { registration } from '../../claude/registration.js';
import { installedHooks } from '../../claude/settings.js';
import { projectSettingsPath, userSettingsPath } from '../../claude/settings-file.js';
import { HOOK_SPECS } from '../../claude/settings-hook-entries.js';
import { findOnPath } from '../../files/find-on-path.js';
import { errorMessage } from '../../shared/errors.js';
import { VERSION } from '../../version.js';
import { startMcpClient } from '../mcp-stdio-client.js';
import { type Check, fail, ok, warn } from './check.js';

/**
 * Doctor's checks of the Claude Code side: the hooks registered in the settings files, the
 * `agentctx` those hooks run (on PATH, running, this version), and the MCP server (registered,
 * and answering an initialize and tools/list).
 */

const INSTALL = 'npm install -g @agentctxhq/agentctx';

function readOrNull(path: string): string | null {
  try {
    return existsSync(path) ? readFileSync(path, 'utf8') : null;
  } catch {
    return null;
  }
}

/** The agentctx Claude Code would run: the first on PATH. */
function agentctxOnPath(a: App): string | null {
  return findOnPath('agentctx', a.env);
}

export function hooksCheck(a: App): { check: Check; registered: boolean } {
  const files = [
    userSettingsPath(a.env),
    projectSettingsPath(a.project.root),
    join(a.project.root, '.claude', 'settings.local.json'),
  ];
  const found: Record<string, string[]> = {};
  for (const path of files) {
    let hooks: Record<string, string[]>;
    try {
      hooks = installedHooks(readOrNull(path), path);
    } catch (err) {
      return {
        check: fail(
          'hooks',
          'hooks',
          errorMessage(err),
          `fix the JSON in ${path}, then run \`agentctx init\``,
          {
            path,
          },
        ),
        registered: false,
      };
    }
    if (Object.keys(hooks).length > 0) found[path] = Object.keys(hooks);
  }
  const events = new Set(Object.values(found).flat());
  const plugin = registration(a.env, a.project.root).plugin.map((p) => p.id);
  if (plugin.length > 0 && events.size > 0)
    return {
      check: warn(
        'hooks',
        'hooks',
        `registered twice: by the plugin ${plugin.join(', ')} and by agentctx init in ${Object.keys(found).join(', ')}; the plugin's hooks stand aside`,
        'keep one: `agentctx uninstall` (the plugin stays), or `claude plugin uninstall agentctx@agentctx`',
        { files: found, plugin },
      ),
      registered: true,
    };
  if (plugin.length > 0)
    return {
      check: ok('hooks', 'hooks', `registered by the Claude Code plugin ${plugin.join(', ')}`, { plugin }),
      registered: true,
    };
  if (events.size === 0)
    return {
      check: fail(
        'hooks',
        'hooks',
        'not registered: Claude Code does not run agentctx in this project',
        'run `agentctx init` (or `agentctx init --project` for this repository only); the plugin route, from a clone of agentctx, is in the README',
        { files },
      ),
      registered: false,
    };
  const missing = [...new Set(HOOK_SPECS.map((s) => s.event))].filter((e) => !events.has(e));
  const where = Object.keys(found).join(', ');
  if (missing.length > 0)
    return {
      check: warn(
        'hooks',
        'hooks',
        `registered in ${where}, but not for ${missing.join(', ')}`,
        'run `agentctx init` again to add them',
        {
          files: found,
          missing,
        },
      ),
      registered: true,
    };
  return {
    check: ok('hooks', 'hooks', `${events.size} events registered in ${where}`, { files: found }),
    registered: true,
  };
}

/**
 * The `agentctx` on PATH: there, running, this version, and its hook process exiting 0.
 * `scratchHome` stands in for a home that does not exist yet (a hook process writes its code
 * cache there), so that doctor creates nothing of the user's.
 */
export function binaryCheck(a: App, hooksRegistered: boolean, scratchHome: string | null): Check {
  const bin = agentctxOnPath(a);
  if (!bin) {
    const summary = 'agentctx is not on PATH';
    const fix = `\`${INSTALL}\` (or add the folder holding agentctx to PATH): the hooks and the MCP server run agentctx`;
    return hooksRegistered
      ? fail('binary', 'binary', `${summary}, but the hooks run \`agentctx hook …\`: they do nothing`, fix)
      : warn('binary', 'binary', summary, fix);
  }
  const env = { ...a.env, ...(scratchHome ? { AGENTCTX_HOME: scratchHome } : {}) };
  const version = spawnSync(bin, ['--version'], { env, encoding: 'utf8', timeout: 15_000 });
  if (version.status !== 0)
    return fail(
      'binary',
      'binary',
      `${bin} does not run (${version.error?.message ?? `exit ${version.status}`}: ${(version.stderr ?? '').trim().split('\n')[0] ?? ''})`,
      `reinstall it: \`${INSTALL}\``,
      { path: bin },
    );
  const theirs = (version.stdout ?? '').trim();
  const started = performance.now();
  const hook = spawnSync(bin, ['hook', 'cwd-changed'], {
    env,
    input: '{}',
    encoding: 'utf8',
    timeout: 15_000,
  });
  const hookMs = Math.round(performance.now() - started);
  if (hook.status !== 0)
    return fail(
      'binary',
      'binary',
      `${bin} hook exited ${hook.status ?? hook.error?.message}`,
      `reinstall it: \`${INSTALL}\``,
      {
        path: bin,
      },
    );
  const details = { path: bin, version: theirs, hook_ms: hookMs };
  if (theirs !== VERSION)
    return warn(
      'binary',
      'binary',
      `${bin} is version ${theirs}, this one is ${VERSION}`,
      `the hooks run the one on PATH; update it (\`${INSTALL}\`) or put this one first on PATH`,
      details,
    );
  return ok('binary', 'binary', `${bin} ${theirs}; a hook process ran in ${hookMs} ms`, details);
}

function registeredInProject(root: string): boolean {
  try {
    const v = JSON.parse(readOrNull(join(root, '.mcp.json')) ?? '{}') as {
      mcpServers?: Record<string, unknown>;
    };
    return Boolean(v.mcpServers && Object.hasOwn(v.mcpServers, 'agentctx'));
  } catch {
    return false;
  }
}

/** The MCP server: registered with Claude Code, and answering initialize and tools/list. */
export async function mcpCheck(a: App, scratchHome: string | null): Promise<Check> {
  const path = claudeJsonPath(a.env);
  let state: string;
  try {
    state = mcpState(readOrNull(path), path);
  } catch (err) {
    return fail(
      'mcp',
      'mcp server',
      errorMessage(err),
      `fix the JSON in ${path}, then run \`agentctx init\``,
    );
  }
  const inProject = registeredInProject(a.project.root);
  const bin = agentctxOnPath(a);
  const started = performance.now();
  let tools: string[] = [];
  let error: string | null = null;
  try {
    const client = await startMcpClient({
      command: bin ?? process.execPath,
      args: bin ? ['mcp'] : [installedBinPath(), 'mcp'],
      cwd: a.project.root,
      env: { ...a.env, ...(scratchHome ? { AGENTCTX_HOME: scratchHome } : {}) },
      timeoutMs: 10_000,
    });
    try {
      tools = await client.listTools();
    } finally {
      await client.close();
    }
  } catch (err) {
    error = errorMessage(err);
  }
  const ms = Math.round(performance.now() - started);
  if (error)
    return fail(
      'mcp',
      'mcp server',
      `agentctx mcp did not answer: ${error}`,
      'run `agentctx mcp` in a terminal to see its error; reinstall if it cannot start',
      {
        registered: state,
      },
    );
  if (!tools.includes('ctx_search'))
    return fail(
      'mcp',
      'mcp server',
      `agentctx mcp answered without ctx_search (tools: ${tools.join(', ')})`,
      `reinstall: \`${INSTALL}\``,
    );
  const details = { registered: state, project_mcp_json: inProject, tools: tools.length, ms };
  if (state === 'different')
    return warn(
      'mcp',
      'mcp server',
      `answers (${tools.length} tools), but mcpServers.agentctx in ${path} is not agentctx's entry`,
      'run `agentctx init` to correct it',
      details,
    );
  const plugin = registration(a.env, a.project.root).plugin.map((p) => p.id);
  if (plugin.length > 0)
    return ok(
      'mcp',
      'mcp server',
      `registered by the plugin ${plugin.join(', ')}; answered initialize and tools/list (${tools.length} tools) in ${ms} ms`,
      { ...details, plugin },
    );
  if (state !== 'ours' && !inProject)
    return warn(
      'mcp',
      'mcp server',
      `answers (${tools.length} tools) but is not registered with Claude Code`,
      'run `agentctx init`',
      details,
    );
  return ok(
    'mcp',
    'mcp server',
    `registered; answered initialize and tools/list (${tools.length} tools) in ${ms} ms`,
    details,
  );
}
