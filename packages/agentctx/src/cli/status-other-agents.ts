import { agentSeen } from '../app/agent-seen.js';
import type { App } from '../app/context.js';
import { otherAgentRegistrations } from './doctor/agents-checks.js';
import type { AgentStatus } from './status-agents.js';

/**
 * `status`'s line for each agent beyond Claude Code and Codex: the events agentctx's hooks are
 * registered for (OpenCode: its plugin module), the MCP server, the last session seen. None of
 * these agents asks for hooks to be trusted.
 */
export function otherAgentsStatus(a: App): AgentStatus[] {
  return otherAgentRegistrations(a.env).map((g) => ({
    agent: g.id,
    hooks: g.id === 'opencode' && g.state.plugin ? ['(plugin)'] : g.state.events,
    trusted: null,
    mcp: g.mcp,
    last_session: agentSeen(a.paths, g.id),
  }));
}
