import { homedir } from 'node:os';
import { join } from 'node:path';
import type { HookSpec } from '../claude/settings-hook-entries.js';

type Env = Record<string, string | undefined>;

/** Codex's home: `CODEX_HOME`, else `~/.codex`. */
export function codexHome(env: Env): string {
  return env.CODEX_HOME || join(env.HOME || homedir(), '.codex');
}

export function codexHooksPath(env: Env): string {
  return join(codexHome(env), 'hooks.json');
}

export function codexConfigPath(env: Env): string {
  return join(codexHome(env), 'config.toml');
}

/**
 * What `agentctx init --agent codex` registers in `$CODEX_HOME/hooks.json` (the same shape as
 * Claude Code's settings `hooks`). The events Codex 0.169 fires that agentctx uses; Codex has
 * no CwdChanged and no PostToolUseFailure (a failing command is a PostToolUse). PostToolUse is
 * not async: Codex waits for it, and the capture is quick. Codex clamps SessionEnd to 3 s.
 */
export const CODEX_HOOK_SPECS: readonly HookSpec[] = [
  { event: 'SessionStart', slug: 'session-start', timeout: 10, agent: 'codex' },
  { event: 'UserPromptSubmit', slug: 'user-prompt-submit', timeout: 10, agent: 'codex' },
  { event: 'PostToolUse', slug: 'post-tool-use', timeout: 30, matcher: '*', agent: 'codex' },
  { event: 'PreCompact', slug: 'pre-compact', timeout: 15, agent: 'codex' },
  { event: 'Stop', slug: 'stop', timeout: 10, agent: 'codex' },
  { event: 'SessionEnd', slug: 'session-end', timeout: 3, agent: 'codex' },
  { event: 'SubagentStart', slug: 'subagent-start', timeout: 10, agent: 'codex' },
];
