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

export const DEFAULT_AGENT: HookAgent = 'claude-code';

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
