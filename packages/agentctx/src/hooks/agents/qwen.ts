import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { hookSpecificOutput } from './adapter.js';
import { fitToCap } from './fit.js';
import { normaliseGeminiFamilyTool } from './tool-names.js';

/**
 * Qwen Code reads up to 1 MiB of a command hook's stdout (more is cut, and the cut JSON is then
 * ignored whole); it puts SessionStart's context at the end of the system message and
 * UserPromptSubmit's in the user message. agentctx keeps to the 10,000 characters it gives
 * Claude Code: the injection budgets sit far below, and the model sees the same text.
 */
const QWEN_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;

/**
 * Qwen Code (measured with 0.24.4): Claude Code's payload names and output shape
 * (`hookSpecificOutput.additionalContext`), its own session variable `QWEN_CODE_SESSION_ID`,
 * and Gemini CLI's tool names (`run_shell_command`, `write_file`, `edit`) with results as
 * `{llmContent, returnDisplay}`. `CLAUDE_CODE_SESSION_ID` is never read: a Qwen started inside
 * a Claude Code session inherits it. UserPromptSubmit also fires on each tool-result turn,
 * with an empty prompt (nothing is injected then).
 */
export const qwenAdapter: HookAdapter = {
  agent: 'qwen',
  toEvent(name, payload, env, processCwd) {
    const event = toHookEvent(name, payload, env.CLAUDE_PROJECT_DIR || processCwd);
    if (!event.sessionId && typeof env.QWEN_CODE_SESSION_ID === 'string')
      event.sessionId = env.QWEN_CODE_SESSION_ID.slice(0, 256);
    return event.kind === 'post-tool-use' ? normaliseGeminiFamilyTool(event) : event;
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text) return '';
    const fitted = fitToCap(text, measure, QWEN_CONTEXT_CHARS);
    return fitted ? hookSpecificOutput(name, fitted) : '';
  },
  cap: { measure, limit: QWEN_CONTEXT_CHARS, unit: 'characters' },
};
