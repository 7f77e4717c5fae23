import type { HookName } from '../event.js';
import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { fitToCap } from './fit.js';
import { normaliseGeminiFamilyTool } from './tool-names.js';

/**
 * Gemini CLI reads a command hook's whole stdout (no cap of its own); agentctx keeps to the
 * 10,000 characters it gives Claude Code.
 */
const GEMINI_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;
const HOOK_CONTEXT = /<hook_context>[\s\S]*?<\/hook_context>/g;

/** Gemini CLI's names for the events agentctx answers (its settings.json `hooks` keys). */
export const GEMINI_EVENT_NAMES: Partial<Record<HookName, string>> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'BeforeAgent',
  'post-tool-use': 'AfterTool',
  stop: 'AfterAgent',
  'session-end': 'SessionEnd',
  'pre-compact': 'PreCompress',
};

/**
 * Gemini CLI (measured with 0.61.0): Claude Code's field names under its own event names
 * (BeforeAgent carries the prompt, AfterTool the tool call, AfterAgent ends a turn),
 * `GEMINI_SESSION_ID` in the environment, and `hookSpecificOutput.additionalContext` read at
 * SessionStart and BeforeAgent. `CLAUDE_CODE_SESSION_ID` is never read.
 */
export const geminiAdapter: HookAdapter = {
  agent: 'gemini',
  toEvent(name, payload, env, processCwd) {
    const event = toHookEvent(name, payload, env.CLAUDE_PROJECT_DIR || processCwd);
    if (!event.sessionId && typeof env.GEMINI_SESSION_ID === 'string')
      event.sessionId = env.GEMINI_SESSION_ID.slice(0, 256);
    if (event.kind === 'post-tool-use') return normaliseGeminiFamilyTool(event);
    // BeforeAgent's prompt arrives with SessionStart's context already prepended to it
    if (event.kind === 'user-prompt-submit') event.prompt = event.prompt.replace(HOOK_CONTEXT, '').trim();
    return event;
  },
  render(name, result) {
    const text = result?.additionalContext;
    const eventName = GEMINI_EVENT_NAMES[name];
    if (!text || !eventName) return '';
    const fitted = fitToCap(text, measure, GEMINI_CONTEXT_CHARS);
    return fitted
      ? JSON.stringify({ hookSpecificOutput: { hookEventName: eventName, additionalContext: fitted } })
      : '';
  },
  cap: { measure, limit: GEMINI_CONTEXT_CHARS, unit: 'characters' },
};
