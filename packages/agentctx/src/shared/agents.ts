/**
 * The coding agents whose hooks agentctx answers. The hook command names its agent
 * (`agentctx hook <event> --agent codex`); without the flag it is Claude Code, the agent every
 * registration before this flag was written for. Kept out of core/: agents are an adapter
 * concern; core sees only a neutral `source agent` string on what it stores.
 */
export const HOOK_AGENTS = [
  'claude-code',
  'codex',
  'qwen',
  'gemini',
  'opencode',
  'cursor',
  'copilot',
] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];

const DEFAULT_AGENT: HookAgent = 'claude-code';

export function isHookAgent(v: unknown): v is HookAgent {
  return typeof v === 'string' && (HOOK_AGENTS as readonly string[]).includes(v);
}

/** How each agent is named to a person (the handover line, status, doctor). */
export const AGENT_LABELS: Record<HookAgent, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  qwen: 'Qwen Code',
  gemini: 'Gemini CLI',
  opencode: 'OpenCode',
  cursor: 'Cursor',
  copilot: 'Copilot CLI',
};

/**
 * The agent a hook process answers: `--agent NAME` or `--agent=NAME` after the event on its
 * command line, else `AGENTCTX_AGENT`, else Claude Code. An unknown name falls back to Claude
 * Code's format rather than failing: a hook never breaks a session.
 */
export function hookAgentOf(argv: readonly string[], env: Record<string, string | undefined>): HookAgent {
  let named: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--agent') named = argv[i + 1];
    else if (a?.startsWith('--agent=')) named = a.slice('--agent='.length);
  }
  named ??= env.AGENTCTX_AGENT;
  return isHookAgent(named) ? named : DEFAULT_AGENT;
}

/** A stored agent name as a person reads it ('codex' → 'Codex'); an unknown name as stored. */
export function agentLabel(name: string | null | undefined): string {
  if (!name) return AGENT_LABELS[DEFAULT_AGENT];
  return isHookAgent(name) ? AGENT_LABELS[name] : name;
}

/**
 * Where each agent tells the MCP server it starts which session it serves (the hooks read the
 * payload instead), measured with each real client. Claude Code and Qwen Code pass their
 * session's variable on in the server's environment. Codex gives its servers no such variable
 * (only HOME, PATH, TMPDIR and what `env_vars` lists) but names the session in every
 * `tools/call`'s `_meta.sessionId`. Gemini CLI 0.61 passes neither (GEMINI_SESSION_ID is set
 * for hooks only); OpenCode, Cursor and Copilot CLI are not known to. Another agent's variable
 * is never read: an agent started inside a Claude Code session inherits
 * CLAUDE_CODE_SESSION_ID, which names that other session.
 */
const SESSION_ENV: Partial<Record<HookAgent, string>> = {
  'claude-code': 'CLAUDE_CODE_SESSION_ID',
  qwen: 'QWEN_CODE_SESSION_ID',
};
const SESSION_META: Partial<Record<HookAgent, string>> = { codex: 'sessionId' };

function sessionValue(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  const id = v.trim();
  return id ? id.slice(0, 200) : null;
}

/** The agent's session, from the environment it started the process with; null when it gives none. */
export function agentSessionFromEnv(
  agent: HookAgent,
  env: Record<string, string | undefined>,
): string | null {
  const name = SESSION_ENV[agent];
  return name ? sessionValue(env[name]) : null;
}

/** The agent's session, from one MCP request's `_meta`; null when it names none there. */
export function agentSessionFromMeta(
  agent: HookAgent,
  meta: Record<string, unknown> | undefined,
): string | null {
  const key = SESSION_META[agent];
  return key && meta ? sessionValue(meta[key]) : null;
}
