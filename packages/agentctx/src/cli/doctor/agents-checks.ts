import { existsSync, readFileSync } from 'node:fs';
import { COPILOT, CURSOR, type HookFileAgent } from '../../agents/cursor-copilot.js';
import { GEMINI, type JsonSettingsAgent, OPENCODE, QWEN } from '../../agents/json-agents.js';
import { jsonAgentHooks } from '../../agents/json-install.js';
import { OPENCODE_PLUGIN_MARK, opencodePluginPath } from '../../agents/opencode-plugin.js';
import type { App } from '../../app/context.js';
import { isOurCommand } from '../../claude/settings-hook-entries.js';
import { agentFound } from '../init-agents.js';
import { type Check, ok, warn } from './check.js';

type Env = Record<string, string | undefined>;

/** A JSON object file, or null when it is missing, unreadable or not an object. */
export function readJson(path: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function hasServer(path: string, key: string): boolean {
  const servers = readJson(path)?.[key];
  return typeof servers === 'object' && servers !== null && 'agentctx' in servers;
}

/** The events of `agent` that hold one of agentctx's commands, and the ones missing. */
function jsonAgentState(agent: JsonSettingsAgent, env: Env) {
  const events = Object.keys(jsonAgentHooks(agent, env));
  const missing = agent.specs.map((s) => s.event).filter((e) => !events.includes(e));
  const plugin =
    agent.id !== 'opencode' ||
    (existsSync(opencodePluginPath(env)) &&
      readFileSync(opencodePluginPath(env), 'utf8').startsWith(OPENCODE_PLUGIN_MARK));
  return { registered: events.length > 0 || (agent.id === 'opencode' && plugin), events, missing, plugin };
}

function hookFileState(agent: HookFileAgent, env: Env) {
  const hooks = readJson(agent.hooksPath(env))?.hooks as Record<string, unknown> | undefined;
  const events = Object.entries(hooks ?? {})
    .filter(
      ([, v]) =>
        Array.isArray(v) && v.some((e) => isOurCommand((e as Record<string, unknown>)?.[agent.field])),
    )
    .map(([k]) => k);
  const missing = agent.specs.map((s) => s.event).filter((e) => !events.includes(e));
  return { registered: events.length > 0, events, missing, plugin: true };
}

/**
 * Qwen Code, Gemini CLI, OpenCode, Cursor and Copilot CLI: for each agent found or registered,
 * whether agentctx's hooks (OpenCode: its plugin module) and MCP server are in its files.
 * None of them needs hooks approved. Null for an agent that is neither.
 */
/** What of agentctx each other agent's files hold, and whether the agent is on this machine. */
export function otherAgentRegistrations(env: Env) {
  return [
    ...[QWEN, GEMINI, OPENCODE].map((g) => ({
      id: g.id,
      label: g.label,
      mcp: hasServer(g.settingsPath(env), g.serversKey ?? 'mcpServers'),
      state: jsonAgentState(g, env),
      found: agentFound(g, env),
    })),
    ...[CURSOR, COPILOT].map((g) => ({
      id: g.id,
      label: g.label,
      mcp: hasServer(g.mcpPath(env), 'mcpServers'),
      state: hookFileState(g, env),
      found: agentFound(g, env),
    })),
  ];
}

export function otherAgentChecks(a: App): Check[] {
  const out: Check[] = [];
  const agents = otherAgentRegistrations(a.env);
  for (const g of agents) {
    const fix = `run agentctx init --agent ${g.id}`;
    if (!g.state.registered && !g.mcp) {
      if (g.found)
        out.push(
          ok(
            g.id,
            g.id,
            `${g.label} found; agentctx is not registered there (agentctx init --agent ${g.id})`,
          ),
        );
      continue;
    }
    const gaps = [
      g.state.plugin ? '' : 'the plugin module is missing',
      g.state.missing.length ? `hooks missing for ${g.state.missing.join(', ')}` : '',
      g.mcp ? '' : 'no agentctx MCP server',
    ].filter(Boolean);
    out.push(
      gaps.length
        ? warn(g.id, g.id, `${g.label}: ${gaps.join('; ')}`, fix, { missing: g.state.missing, mcp: g.mcp })
        : ok(g.id, g.id, `${g.label}: hooks and MCP server registered`),
    );
  }
  return out;
}
