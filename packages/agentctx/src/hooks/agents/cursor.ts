import { toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { fitToCap } from './fit.js';

/** Cursor documents no cap for `additional_context`; agentctx keeps to Claude Code's 10,000 characters. */
const CURSOR_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;
type Obj = Record<string, unknown>;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/**
 * Cursor's hook payloads as its documentation gives them (not run here): every event carries
 * `conversation_id`, `generation_id`, `workspace_roots`, `hook_event_name`; sessionStart adds
 * `session_id`, `is_background_agent`, `composer_mode`; afterShellExecution `command`, `output`,
 * `duration`; afterFileEdit `file_path`, `edits`; postToolUse `tool_name`, `tool_input`,
 * `tool_output`. They become Claude Code's field names here. Only sessionStart's output is read
 * (`{"additional_context"}`); Stop's `transcript_path` is dropped: there is no reader for
 * Cursor's transcripts.
 */
function claudeShaped(name: string, p: Obj): Obj {
  const roots = Array.isArray(p.workspace_roots) ? p.workspace_roots : [];
  const out: Obj = {
    session_id: str(p.session_id) || str(p.conversation_id),
    cwd: str(p.cwd) || str(roots[0]),
    hook_event_name: p.hook_event_name,
  };
  if (name !== 'post-tool-use') return out;
  const event = str(p.hook_event_name);
  if (event === 'afterFileEdit') return { ...out, tool_name: 'Edit', tool_input: { file_path: p.file_path } };
  if (event === 'afterShellExecution')
    return {
      ...out,
      tool_name: 'Bash',
      tool_input: { command: p.command },
      tool_response: { output: p.output },
    };
  // postToolUse: the shell tool is Shell; its output a string
  const tool = str(p.tool_name);
  const input = typeof p.tool_input === 'object' && p.tool_input !== null ? (p.tool_input as Obj) : {};
  if (tool === 'Shell' || tool === 'run_terminal_cmd')
    return {
      ...out,
      tool_name: 'Bash',
      tool_input: { command: input.command },
      tool_response: { output: p.tool_output },
    };
  return { ...out, tool_name: tool, tool_input: input, tool_response: p.tool_output };
}

export const cursorAdapter: HookAdapter = {
  agent: 'cursor',
  toEvent(name, payload, _env, processCwd) {
    return toHookEvent(name, claudeShaped(name, payload), processCwd);
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text || name !== 'session-start') return '';
    const fitted = fitToCap(text, measure, CURSOR_CONTEXT_CHARS);
    return fitted ? JSON.stringify({ additional_context: fitted }) : '';
  },
  cap: { measure, limit: CURSOR_CONTEXT_CHARS, unit: 'characters' },
};
