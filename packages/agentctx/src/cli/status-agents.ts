import { existsSync, readFileSync } from 'node:fs';
import { isolatedAgents } from '../app/agent-scope.js';
import { agentSeen, ago } from '../app/agent-seen.js';
import type { App } from '../app/context.js';
import { claudeJsonPath, mcpState } from '../claude/mcp-registration.js';
import { registration } from '../claude/registration.js';
import { findCodexCli, listHooks, openAppServer } from '../codex/app-server.js';
import { hasTable, MCP_TABLE } from '../codex/config-file.js';
import { codexConfigPath, codexHome, codexHooksPath } from '../codex/hooks-file.js';
import { codexInstalledHooks, ourCodexHooks } from '../codex/install.js';
import { enabledCodexPlugin } from '../codex/plugin-install.js';
import { AGENT_LABELS, type HookAgent } from '../shared/agents.js';
import { mcpAnswering } from './doctor/mcp-answering.js';
import { otherAgentsStatus } from './status-other-agents.js';

/** One agent as `status` lists it. */
export interface AgentStatus {
  agent: HookAgent;
  /** The events agentctx's hooks are registered for there (empty: not registered). */
  hooks: string[];
  /** Hooks the agent will run: all of them where it asks for no trust; null when not checked. */
  trusted: { trusted: number; of: number } | null;
  mcp: boolean;
  /** status --verbose: whether the MCP server it registered answers, in words. */
  mcp_answering?: string;
  /** Its records are kept to itself (`agents.isolate`): shown only to it, and it sees only them. */
  isolated?: boolean;
  last_session: { session_id: string; at: string } | null;
}

function read(p: string): string | null {
  return existsSync(p) ? readFileSync(p, 'utf8') : null;
}

/** Codex's trust, asked of its app server (null when codex is not on PATH or does not answer). */
async function codexTrust(a: App, registered: number): Promise<AgentStatus['trusted']> {
  const codex = findCodexCli(a.env);
  if (!codex || registered === 0) return null;
  let server: Awaited<ReturnType<typeof openAppServer>> | undefined;
  try {
    server = await openAppServer(codex, { env: a.env, cwd: a.project.root, timeoutMs: 10_000 });
    const ours = ourCodexHooks(await listHooks(server, a.project.root), codexHooksPath(a.env));
    return { trusted: ours.filter((h) => h.trustStatus === 'trusted').length, of: ours.length };
  } catch {
    return null;
  } finally {
    server?.close();
  }
}

/** Each agent: registered, hooks trusted, MCP server registered, the last session its hooks saw. */
export async function agentsStatus(
  a: App,
  opts: { probeMcp?: boolean } = {},
): Promise<{ json: { agents: AgentStatus[] }; lines: string[] }> {
  const reg = registration(a.env, a.project.root);
  const claudeHooks = [...new Set(reg.init.flatMap((i) => i.events))];
  let claudeMcp = reg.plugin.length > 0;
  try {
    claudeMcp ||= mcpState(read(claudeJsonPath(a.env)), claudeJsonPath(a.env)) === 'ours';
  } catch {
    // a malformed ~/.claude.json: status's claude line says so
  }
  const codexHooks = Object.keys(codexInstalledHooks(a.env));
  let codexMcp = false;
  try {
    const config = read(codexConfigPath(a.env)) ?? '';
    // the Codex plugin brings its server with it (codex-mcp.json); its hooks are counted above
    codexMcp = enabledCodexPlugin(config) !== null || hasTable(config, MCP_TABLE);
  } catch {
    codexMcp = false;
  }
  const agents: AgentStatus[] = [
    {
      agent: 'claude-code',
      hooks: reg.plugin.length > 0 && claudeHooks.length === 0 ? ['(plugin)'] : claudeHooks,
      trusted: null,
      mcp: claudeMcp,
      last_session: agentSeen(a.paths, 'claude-code'),
    },
    {
      agent: 'codex',
      hooks: codexHooks,
      trusted: await codexTrust(a, codexHooks.length),
      mcp: codexMcp,
      last_session: agentSeen(a.paths, 'codex'),
    },
    ...otherAgentsStatus(a),
  ];
  if (opts.probeMcp) {
    const answering = await mcpAnswering(a);
    for (const s of agents) {
      const said = answering.get(s.agent);
      if (said) s.mcp_answering = said;
    }
  }
  const isolated = isolatedAgents(a.config);
  for (const s of agents) if (isolated.includes(s.agent)) s.isolated = true;
  const now = a.clock();
  const lines = agents
    .filter(
      (s) =>
        s.hooks.length > 0 ||
        s.mcp ||
        s.last_session ||
        s.isolated ||
        (s.agent === 'codex' && existsSync(codexHome(a.env))),
    )
    .map((s) => {
      const parts = [
        s.hooks.length > 0 ? `hooks for ${s.hooks.length} event(s)` : 'not registered',
        s.agent === 'codex' && s.hooks.length > 0
          ? s.trusted
            ? `${s.trusted.trusted}/${s.trusted.of} trusted`
            : 'trust not checked (codex not on PATH)'
          : '',
        s.mcp_answering ?? (s.mcp ? 'MCP server registered' : 'no MCP server'),
        s.isolated ? 'its records kept to itself (agents.isolate)' : '',
        s.last_session
          ? `last session ${ago(s.last_session.at, now)} (${s.last_session.session_id})`
          : 'no session seen yet',
      ].filter(Boolean);
      return `agent     ${AGENT_LABELS[s.agent]}: ${parts.join(', ')}`;
    });
  return { json: { agents }, lines };
}
