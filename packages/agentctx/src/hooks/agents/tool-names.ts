import type { PostToolUseEvent } from '../event.js';

/**
 * The built-in tools of the agents that descend from Gemini CLI (Gemini CLI, Qwen Code), in the
 * engine's vocabulary: the shell as Bash, file writes as Write and Edit. Their tool results
 * arrive as `{llmContent, returnDisplay}`; the text the model saw becomes the shell output the
 * capture reads.
 */
const SHELL = new Set(['run_shell_command', 'shell', 'bash']);
const WRITE = new Set(['write_file']);
const EDIT = new Set(['replace', 'edit', 'multi_edit']);

/** A tool result's text: a string, `{llmContent}` (string or parts), or `{output|error}`. */
export function resultText(response: unknown): string {
  if (typeof response === 'string') return response;
  if (typeof response !== 'object' || response === null) return '';
  const r = response as Record<string, unknown>;
  const parts: string[] = [];
  const content = r.llmContent ?? r.content;
  if (typeof content === 'string') parts.push(content);
  else if (Array.isArray(content))
    for (const p of content)
      if (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string')
        parts.push((p as { text: string }).text);
  for (const k of ['output', 'stdout', 'stderr', 'error']) {
    const v = r[k];
    if (typeof v === 'string' && v) parts.push(v);
    else if (typeof v === 'object' && v !== null && typeof (v as { message?: unknown }).message === 'string')
      parts.push((v as { message: string }).message);
  }
  return parts.join('\n');
}

export function normaliseGeminiFamilyTool(ev: PostToolUseEvent): PostToolUseEvent {
  const name = ev.toolName;
  if (SHELL.has(name)) {
    return { ...ev, toolName: 'Bash', toolResponse: { output: resultText(ev.toolResponse) } };
  }
  const file = ev.toolInput.file_path ?? ev.toolInput.absolute_path ?? ev.toolInput.path;
  if (typeof file !== 'string' || !file) return ev;
  if (WRITE.has(name)) return { ...ev, toolName: 'Write', toolInput: { file_path: file } };
  if (EDIT.has(name)) return { ...ev, toolName: 'Edit', toolInput: { file_path: file } };
  return ev;
}
