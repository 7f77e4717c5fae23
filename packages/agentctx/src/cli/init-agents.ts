import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import {
  COPILOT,
  CURSOR,
  type HookFileAgent,
  type HookFileReport,
  installHookFileAgent,
  uninstallHookFileAgent,
} from '../agents/cursor-copilot.js';
import { GEMINI, type JsonSettingsAgent, OPENCODE, QWEN } from '../agents/json-agents.js';
import {
  installJsonAgent,
  type JsonAgentInstallReport,
  type JsonAgentUninstallReport,
  uninstallJsonAgent,
} from '../agents/json-install.js';
import {
  installOpencodePlugin,
  type PluginChange,
  uninstallOpencodePlugin,
} from '../agents/opencode-install.js';
import { AgentctxError, errorMessage } from '../shared/errors.js';

type Env = Record<string, string | undefined>;

/**
 * The agents beyond Claude Code and Codex that `init --agent` and `uninstall --agent` take:
 * each registers agentctx's hooks and MCP server in that agent's own configuration.
 */
const OTHER_AGENTS: readonly JsonSettingsAgent[] = [QWEN, GEMINI, OPENCODE];

/** Every name `--agent` takes. */
/** Agents that cannot run here, registered from their documented hook formats. */
const HOOK_FILE_AGENTS: readonly HookFileAgent[] = [CURSOR, COPILOT];

const AGENT_CHOICES = [
  'claude-code',
  'codex',
  ...OTHER_AGENTS.map((a) => a.id),
  ...HOOK_FILE_AGENTS.map((a) => a.id),
  'all',
] as const;
type AgentChoice = 'claude-code' | 'codex' | JsonSettingsAgent['id'] | HookFileAgent['id'] | 'all';

export function parseAgentChoice(v: unknown, fallback: AgentChoice): AgentChoice {
  if (v === undefined) return fallback;
  if (typeof v === 'string' && (AGENT_CHOICES as readonly string[]).includes(v)) return v as AgentChoice;
  throw new AgentctxError('usage', `--agent must be one of ${AGENT_CHOICES.join(', ')}; got ${String(v)}`);
}

function onPath(env: Env, name: string): boolean {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    try {
      const p = join(dir, name);
      if (!statSync(p).isFile()) continue;
      accessSync(p, constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}

/** Is the agent on this machine: its folder, or its command on PATH? */
export function agentFound(agent: { home: (env: Env) => string; bin: string }, env: Env): boolean {
  return existsSync(agent.home(env)) || onPath(env, agent.bin);
}

/** The agents of `list` that `--agent` selects: one by name, or for `all` each that `forAll` keeps. */
function selected<A extends { id: string }>(
  list: readonly A[],
  choice: AgentChoice,
  forAll: (a: A) => boolean,
): A[] {
  return list.filter((a) => (choice === 'all' ? forAll(a) : a.id === choice));
}

type OtherInstallReport = JsonAgentInstallReport & { plugin?: PluginChange };
type OtherUninstallReport = JsonAgentUninstallReport & { plugin?: PluginChange };

/** Each chosen agent's settings file; OpenCode's plugin module beside its opencode.json. */
/** An agent `--agent all` could not set up or clean up (its file is malformed, say). */
export interface AgentFailure {
  agent: string;
  error: string;
}

/**
 * Run `fn` for each agent. One named agent: its error is the command's error. `all`: an agent
 * whose file cannot be read or written is reported in `failures` and the others go on, so a
 * broken settings file of one agent does not keep agentctx out of (or in) the rest.
 */
function each<A extends { id: string }, R>(
  choice: AgentChoice,
  agents: readonly A[],
  failures: AgentFailure[],
  fn: (a: A) => R,
): R[] {
  const out: R[] = [];
  for (const a of agents) {
    try {
      out.push(fn(a));
    } catch (err) {
      if (choice !== 'all') throw err;
      failures.push({ agent: a.id, error: errorMessage(err) });
    }
  }
  return out;
}

export function installOthers(
  choice: AgentChoice,
  env: Env,
  stateFile: string,
  failures: AgentFailure[] = [],
): OtherInstallReport[] {
  return each(
    choice,
    selected(OTHER_AGENTS, choice, (a) => agentFound(a, env)),
    failures,
    (a) => {
      // the plugin first: a foreign file in its place stops init before opencode.json is edited
      const plugin = a.id === 'opencode' ? installOpencodePlugin(env, stateFile) : undefined;
      return { ...installJsonAgent(a, env, stateFile), ...(plugin ? { plugin } : {}) };
    },
  );
}

/** Uninstall from the chosen agents; `all` means every agent whose file holds our entries. */
export function uninstallOthers(
  choice: AgentChoice,
  env: Env,
  stateFile: string,
  failures: AgentFailure[] = [],
): OtherUninstallReport[] {
  // for `all`: every agent whose file may hold our entries
  const agents = selected(
    OTHER_AGENTS,
    choice,
    (a) => existsSync(a.settingsPath(env)) || (a.id === 'opencode' && existsSync(a.home(env))),
  );
  return each(choice, agents, failures, (a) => {
    // opencode.json first: the plugin's folders (which init created before it) go last
    const report = uninstallJsonAgent(a, env, stateFile);
    const plugin = a.id === 'opencode' ? uninstallOpencodePlugin(env, stateFile) : undefined;
    return { ...report, ...(plugin ? { plugin } : {}) };
  });
}

const LABEL = Object.fromEntries(
  [...OTHER_AGENTS, ...HOOK_FILE_AGENTS].map((a) => [a.id, a.label]),
) as Record<string, string>;

/** Cursor and Copilot CLI: their hook file and MCP file. */
export function installHookFileAgents(
  choice: AgentChoice,
  env: Env,
  stateFile: string,
  failures: AgentFailure[] = [],
): HookFileReport[] {
  const agents = selected(HOOK_FILE_AGENTS, choice, (a) => agentFound(a, env));
  return each(choice, agents, failures, (a) => installHookFileAgent(a, env, stateFile));
}

export function uninstallHookFileAgents(
  choice: AgentChoice,
  env: Env,
  stateFile: string,
  failures: AgentFailure[] = [],
): HookFileReport[] {
  const agents = selected(
    HOOK_FILE_AGENTS,
    choice,
    (a) => existsSync(a.hooksPath(env)) || existsSync(a.mcpPath(env)),
  );
  return each(choice, agents, failures, (a) => uninstallHookFileAgent(a, env, stateFile));
}

export function hookFileLines(reports: readonly HookFileReport[], verb: 'init' | 'uninstall'): string[] {
  return reports.map((r) => {
    const hooks = r.hooks.changed
      ? `${verb === 'init' ? 'hooks' : 'removed hooks'} ${r.hooks.events.join(', ')} (${r.hooks.path})`
      : `hooks ${verb === 'init' ? 'already set up' : 'none of ours'} (${r.hooks.path})`;
    const mcp = r.mcp.changed
      ? `${verb === 'init' ? 'added' : 'removed'} mcpServers.agentctx (${r.mcp.path})`
      : `mcpServers.agentctx ${verb === 'init' ? 'already set up' : 'not there'} (${r.mcp.path})`;
    return `${LABEL[r.agent]}: ${hooks}; ${mcp}`;
  });
}

export function failureLines(failures: readonly AgentFailure[], verb: 'init' | 'uninstall'): string[] {
  return failures.map(
    (f) =>
      `${LABEL[f.agent]}: not ${verb === 'init' ? 'set up' : 'cleaned up'}: ${f.error} (then agentctx ${verb} --agent ${f.agent})`,
  );
}

export function othersInitLines(reports: readonly OtherInstallReport[]): string[] {
  return reports.map((r) => {
    const what = [
      r.plugin && r.plugin.status !== 'unchanged' ? `${r.plugin.status} plugin ${r.plugin.path}` : '',
      r.hooks.added.length ? `added hooks ${r.hooks.added.join(', ')}` : '',
      r.hooks.updated.length ? `updated hooks ${r.hooks.updated.join(', ')}` : '',
      r.mcp !== 'unchanged' ? `${r.mcp} ${r.agent === 'opencode' ? 'mcp' : 'mcpServers'}.agentctx` : '',
    ].filter(Boolean);
    return `${LABEL[r.agent]}: ${what.length ? what.join('; ') : 'already set up'} (${r.path})`;
  });
}

export function othersUninstallLines(reports: readonly OtherUninstallReport[]): string[] {
  return reports.map((r) => {
    const pluginGone = r.plugin?.status === 'removed';
    if (!r.changed && !pluginGone) return `${LABEL[r.agent]}: nothing of ours in ${r.path}`;
    const what = [
      pluginGone ? `removed plugin ${r.plugin?.path}` : '',
      r.hooksRemoved.length ? `removed hooks ${r.hooksRemoved.join(', ')}` : '',
      r.mcpRemoved ? `removed ${r.agent === 'opencode' ? 'mcp' : 'mcpServers'}.agentctx` : '',
    ].filter(Boolean);
    return `${LABEL[r.agent]}: ${what.join('; ')} (${r.path}${r.deleted ? ', deleted: init created it' : ''})`;
  });
}

/** Other agents found that plain `init` leaves alone, named so the user knows. */
export function othersFoundLines(env: Env): string[] {
  return [...OTHER_AGENTS, ...HOOK_FILE_AGENTS]
    .filter((a) => agentFound(a, env))
    .map((a) => `also found: ${a.label} (agentctx init --agent ${a.id} registers agentctx there too)`);
}
