import type { HookAgent } from '../../shared/agents.js';
import type { HookEvent, HookName } from '../event.js';
import type { HookResult } from '../handlers/index.js';

type Env = Record<string, string | undefined>;

/**
 * One agent's side of a hook: its payload's field names and environment into the typed event
 * the handlers take, and a handler's result into the stdout that agent reads, kept under that
 * agent's cap. The handlers and everything below them never know which agent asked.
 */
export interface HookAdapter {
  agent: HookAgent;
  /** The typed event; `payload` is the parsed stdin (an empty object for anything unusable). */
  toEvent(name: HookName, payload: Record<string, unknown>, env: Env, processCwd: string): HookEvent;
  /** What to print for a result: '' for nothing, else one JSON object under the agent's cap. */
  render(name: HookName, result: HookResult): string;
  /** The largest injection the agent takes whole, in its own measure (for tests and docs). */
  cap: { measure: (s: string) => number; limit: number; unit: string };
}

/** The hook event names the agents share (Claude Code's; Codex uses the same in hooks.json). */
const EVENT_NAMES: Record<HookName, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-tool-use': 'PostToolUse',
  'session-end': 'SessionEnd',
  'cwd-changed': 'CwdChanged',
  'subagent-start': 'SubagentStart',
};

/** `{"hookSpecificOutput":{"hookEventName","additionalContext"}}`, the shape both agents read. */
export function hookSpecificOutput(name: HookName, additionalContext: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: EVENT_NAMES[name], additionalContext } });
}
