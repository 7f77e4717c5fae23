import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { fitToCap } from './fit.js';

/**
 * Copilot CLI passes a hook's `additionalContext` on whole (measured with 1.0.102: 50,000
 * characters at sessionStart and 30,000 at userPromptSubmitted reached the model uncut);
 * agentctx keeps to the 10,000 characters it gives Claude Code, so every agent sees the same text.
 */
const COPILOT_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;
type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** `toolArgs` arrive as an object (measured); a JSON string is read too, as older docs gave it. */
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

function toolCall(p: Obj): Obj {
  const tool = str(p.toolName);
  const a = args(p.toolArgs);
  const result = typeof p.toolResult === 'object' && p.toolResult !== null ? (p.toolResult as Obj) : {};
  const text = str(result.textResultForLlm);
  // postToolUseFailure carries `error` and no result. A shell command that exits non-zero is a
  // postToolUse "success" whose text ends `<shellId: N completed with exit code C>`: capture
  // reads the error lines in that text, as it does in Claude Code's output.
  const error = str(p.error);
  if (tool === 'bash' || tool === 'shell')
    return {
      tool_name: 'Bash',
      tool_input: { command: a.command },
      tool_response: { output: text },
      ...(error ? { error } : {}),
    };
  const file = a.path ?? a.file_path;
  if ((tool === 'edit' || tool === 'create' || tool === 'str_replace_editor') && typeof file === 'string')
    return { tool_name: tool === 'create' ? 'Write' : 'Edit', tool_input: { file_path: file } };
  return { tool_name: tool, tool_input: a, tool_response: text, ...(error ? { error } : {}) };
}

/**
 * Copilot CLI's command-hook payloads, measured with 1.0.102 (its own camelCase names, not
 * Claude Code's): every event `{sessionId, timestamp (ms), cwd}`; sessionStart adds `source`
 * (`new`, `startup`, `resume`) and `initialPrompt`; userPromptSubmitted `prompt`; postToolUse
 * `toolName`, `toolArgs` (an object) and `toolResult: {resultType, textResultForLlm}`, a shell
 * command's exit code only in that text; postToolUseFailure `toolName`, `toolArgs`, `error`;
 * agentStop `transcriptPath` (the session's events.jsonl), `stopReason`, `stop_hook_active`;
 * sessionEnd `reason`. It reads `{"additionalContext"}` from sessionStart (a user message of
 * its own before the prompt) and userPromptSubmitted (a `<system_reminder>` after the prompt).
 * A subagent (the `task` tool) runs the same hooks with `sessionId` set to its own id and
 * `agentId`, `agentType`, `parentAgentId` added: its task arrives as a userPromptSubmitted
 * `prompt`, so it gets the prompt injection with a dedup set of its own, as Claude Code's
 * subagents get SubagentStart's; it never gets the sessionStart digest.
 */
function claudeShaped(name: string, p: Obj): Obj {
  const out: Obj = {
    cwd: p.cwd,
    session_id: p.sessionId,
    transcript_path: p.transcriptPath,
  };
  if (name === 'session-start') return { ...out, source: p.source === 'resume' ? 'resume' : 'startup' };
  if (name === 'user-prompt-submit') return { ...out, prompt: p.prompt };
  if (name === 'session-end') return { ...out, reason: p.reason };
  if (name === 'stop') {
    const active = p.stop_hook_active === true || p.stopHookActive === true;
    // a subagent's agentStop names the parent's events.jsonl under the subagent's own id: the
    // parent's agentStop extracts that file, so this one must not (a second, partial handover)
    const subagent = typeof p.agentId === 'string' && p.agentId !== '';
    return { ...out, stop_hook_active: active, ...(subagent ? { transcript_path: '' } : {}) };
  }
  if (name !== 'post-tool-use') return out;
  return { ...out, ...toolCall(p) };
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
