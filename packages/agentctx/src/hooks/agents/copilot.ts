import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { fitToCap } from './fit.js';

/** Copilot CLI documents no cap for `additionalContext`; agentctx keeps to Claude Code's 10,000 characters. */
const COPILOT_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;
type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

function args(raw: unknown): Obj {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Obj;
  if (typeof raw !== 'string') return {};
  try {
    const v = JSON.parse(raw) as unknown;
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {};
  } catch {
    return {};
  }
}

/**
 * Copilot CLI's hook payloads as its documentation gives them (not run here; it needs a
 * GitHub sign-in), camelCase and without a session id: sessionStart `{timestamp, cwd, source,
 * initialPrompt}`, userPromptSubmitted `{timestamp, cwd, prompt}`, postToolUse `{timestamp,
 * cwd, toolName, toolArgs (a JSON string), toolResult: {resultType, textResultForLlm}}`,
 * sessionEnd `{timestamp, cwd, reason}`. Output `{"additionalContext"}` at sessionStart and
 * userPromptSubmitted; Copilot CLI is reported to ignore it in some versions.
 */
function claudeShaped(name: string, p: Obj): Obj {
  const out: Obj = { cwd: p.cwd };
  if (name === 'session-start') return { ...out, source: p.source === 'resume' ? 'resume' : 'startup' };
  if (name === 'user-prompt-submit') return { ...out, prompt: p.prompt };
  if (name === 'session-end') return { ...out, reason: p.reason };
  if (name !== 'post-tool-use') return out;
  const tool = str(p.toolName);
  const a = args(p.toolArgs);
  const result = typeof p.toolResult === 'object' && p.toolResult !== null ? (p.toolResult as Obj) : {};
  const text = str(result.textResultForLlm);
  const failed = result.resultType === 'failure';
  if (tool === 'bash' || tool === 'shell')
    return {
      ...out,
      tool_name: 'Bash',
      tool_input: { command: a.command },
      tool_response: { output: text },
      ...(failed ? { error: text } : {}),
    };
  const file = a.path ?? a.file_path;
  if ((tool === 'edit' || tool === 'create' || tool === 'str_replace_editor') && typeof file === 'string')
    return { ...out, tool_name: tool === 'create' ? 'Write' : 'Edit', tool_input: { file_path: file } };
  return { ...out, tool_name: tool, tool_input: a, tool_response: text };
}

export const copilotAdapter: HookAdapter = {
  agent: 'copilot',
  toEvent(name, payload, _env, processCwd) {
    return toHookEvent(name, claudeShaped(name, payload), processCwd);
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text || (name !== 'session-start' && name !== 'user-prompt-submit')) return '';
    const fitted = fitToCap(text, measure, COPILOT_CONTEXT_CHARS);
    return fitted ? JSON.stringify({ additionalContext: fitted }) : '';
  },
  cap: { measure, limit: COPILOT_CONTEXT_CHARS, unit: 'characters' },
};
