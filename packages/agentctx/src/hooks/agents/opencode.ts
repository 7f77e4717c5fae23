import { type PostToolUseEvent, toHookEvent } from '../event.js';
import type { HookAdapter } from './adapter.js';
import { hookSpecificOutput } from './adapter.js';
import { fitToCap } from './fit.js';
import { resultText } from './tool-names.js';

/**
 * OpenCode puts what a plugin pushes into the system prompt or the user's message as is, with
 * no cap of its own; agentctx keeps to the 10,000 characters it gives Claude Code.
 */
const OPENCODE_CONTEXT_CHARS = 10_000;
const measure = (s: string) => s.length;

/** OpenCode's tools (bash, edit, write, patch) in the engine's vocabulary. */
function normaliseTool(ev: PostToolUseEvent): PostToolUseEvent {
  const file = ev.toolInput.filePath ?? ev.toolInput.file_path;
  if (ev.toolName === 'bash')
    return { ...ev, toolName: 'Bash', toolResponse: { output: resultText(ev.toolResponse) } };
  if (typeof file !== 'string' || !file) return ev;
  if (ev.toolName === 'write') return { ...ev, toolName: 'Write', toolInput: { file_path: file } };
  if (ev.toolName === 'edit' || ev.toolName === 'patch')
    return { ...ev, toolName: 'Edit', toolInput: { file_path: file } };
  return ev;
}

/**
 * OpenCode, through agentctx's own plugin module (agents/opencode-plugin.ts): the plugin builds
 * Claude Code-shaped payloads from OpenCode's callbacks and reads `hookSpecificOutput` back, so
 * this adapter only maps OpenCode's tool names and keeps the cap. No environment is read.
 */
export const opencodeAdapter: HookAdapter = {
  agent: 'opencode',
  toEvent(name, payload, _env, processCwd) {
    const event = toHookEvent(name, payload, processCwd);
    return event.kind === 'post-tool-use' ? normaliseTool(event) : event;
  },
  render(name, result) {
    const text = result?.additionalContext;
    if (!text) return '';
    const fitted = fitToCap(text, measure, OPENCODE_CONTEXT_CHARS);
    return fitted ? hookSpecificOutput(name, fitted) : '';
  },
  cap: { measure, limit: OPENCODE_CONTEXT_CHARS, unit: 'characters' },
};
