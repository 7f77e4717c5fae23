import { codexSubagentTask } from '../../codex/subagent-task.js';
import { type HookEvent, type PostToolUseEvent, type SubagentStartEvent, toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { hookSpecificOutput } from './adapter.js';
import { fitToCap, utf8Bytes } from './fit.js';

/**
 * Codex CLI's hook context cap: 2,500 tokens per hook by default, where Codex counts a token as
 * four bytes of UTF-8 (ceil(bytes / 4)); past it the text becomes a head-and-tail preview with
 * the rest spilled to a file. So 10,000 bytes is the most that arrives whole.
 */
const CODEX_CONTEXT_TOKENS = 2_500;
export const CODEX_CONTEXT_BYTES = CODEX_CONTEXT_TOKENS * 4;

/** The files a Codex `apply_patch` call names (`*** Add File: p`, `*** Update File: p`). */
export function patchedFiles(input: Record<string, unknown>): string[] {
  const out: string[] = [];
  for (const v of Object.values(input)) {
    if (typeof v !== 'string' || !v.includes('*** ')) continue;
    for (const m of v.matchAll(/^\*\*\* (?:Add|Update) File: (.+)$/gm)) {
      const p = m[1]!.trim();
      if (p && !out.includes(p)) out.push(p);
    }
    for (const m of v.matchAll(/^\*\*\* Move to: (.+)$/gm)) {
      const p = m[1]!.trim();
      if (p && !out.includes(p)) out.push(p);
    }
  }
  return out;
}

/**
 * Codex's PostToolUse in the engine's terms: the shell tool already arrives as `Bash` with its
 * output as a string; a patch becomes an edit of the (first) file it writes.
 */
function normaliseTool(ev: PostToolUseEvent): PostToolUseEvent {
  if (ev.toolName === 'Bash') return ev;
  const files = patchedFiles(ev.toolInput);
  if (files.length === 0) return ev;
  return { ...ev, toolName: 'Edit', toolInput: { file_path: files[0] } };
}

/**
 * A Codex subagent's task, read from the parent's rollout (codex/subagent-task.ts): the payload
 * does not carry it. The child's own rollout, which `transcript_path` names, is not a parent
 * transcript the engine could read a task from, so it is not passed on.
 */
function withTask(ev: SubagentStartEvent): HookEvent {
  if (ev.prompt.trim()) return ev;
  return {
    ...ev,
    prompt: codexSubagentTask(ev.transcriptPath, ev.sessionId, ev.agentId),
    transcriptPath: '',
  };
}

/**
 * Codex CLI. Its payloads carry Claude Code's field names (session_id, transcript_path, cwd,
 * prompt, tool_name, tool_input, tool_response, stop_hook_active; SubagentStart agent_id and
 * agent_type). Claude Code's environment variables are not read: a Codex started from inside
 * a Claude Code session inherits them, and they name the other session.
 */
export const codexAdapter: HookAdapter = {
  agent: 'codex',
  toEvent(name, payload, _env, processCwd) {
    const event = toHookEvent(name, payload, processCwd);
    if (event.kind === 'post-tool-use') return normaliseTool(event);
    return event.kind === 'subagent-start' ? withTask(event) : event;
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text) return '';
    const fitted = fitToCap(text, utf8Bytes, CODEX_CONTEXT_BYTES);
    return fitted ? hookSpecificOutput(name, fitted) : '';
  },
  cap: { measure: utf8Bytes, limit: CODEX_CONTEXT_BYTES, unit: 'bytes of UTF-8 (2,500 Codex tokens)' },
};
