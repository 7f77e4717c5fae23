import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { hookSpecificOutput } from './adapter.js';
import { fitToCap } from './fit.js';

/** Claude Code takes up to 10,000 characters of hook context (more is cut by Claude Code). */
export const CLAUDE_CODE_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;

/**
 * Claude Code: the payload fields as Claude Code names them; `CLAUDE_PROJECT_DIR` and
 * `CLAUDE_CODE_SESSION_ID` fill a payload's missing cwd and session id.
 */
export const claudeCodeAdapter: HookAdapter = {
  agent: 'claude-code',
  toEvent(name, payload, env, processCwd) {
    const event = toHookEvent(name, payload, env.CLAUDE_PROJECT_DIR || processCwd);
    if (!event.sessionId && typeof env.CLAUDE_CODE_SESSION_ID === 'string')
      event.sessionId = env.CLAUDE_CODE_SESSION_ID.slice(0, 256);
    return event;
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text) return '';
    const fitted = fitToCap(text, measure, CLAUDE_CODE_CONTEXT_CHARS);
    // a notice the developer must act on is also shown to them (Claude Code's systemMessage)
    return fitted ? hookSpecificOutput(name, fitted, result?.systemMessage) : '';
  },
  cap: { measure, limit: CLAUDE_CODE_CONTEXT_CHARS, unit: 'characters' },
};
