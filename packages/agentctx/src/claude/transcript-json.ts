/**
 * Reading Claude Code transcript lines: JSON objects whose message content is a string or a
 * list of blocks. Shared by the extraction reader (transcript.ts), the usage reader
 * (transcript-usage.ts) and the subagent task lookup (subagent-task.ts).
 */

export type Json = Record<string, unknown>;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The text of a message's content: the string itself, or its text blocks joined by newlines. */
export function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
    .map((b) => b.text as string)
    .join('\n');
}

/** Tools whose input names a file the session changed. */
export const EDIT_TOOLS: ReadonlySet<string> = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit']);
