import { cutAtWord, type TranscriptEvent } from '../../claude/transcript.js';

/**
 * The transcript as the extraction model reads it: one line (or paragraph) per event, each
 * labelled with who produced it, so the model can tell what the developer said or chose from
 * what the assistant proposed or a tool printed.
 */

const DEVELOPER_CHARS = 4000;
const ASSISTANT_CHARS = 1500;
const SUMMARY_CHARS = 6000;

function cut(text: string, max: number): string {
  return cutAtWord(text.trim(), max);
}

/** Render events to lines. Tool results are attached to their call on one line. */
export function renderTranscript(events: readonly TranscriptEvent[]): string[] {
  const results = new Map<string, { summary: string; isError: boolean }>();
  const calls = new Set<string>();
  for (const e of events) {
    if (e.kind === 'tool_result' && e.toolUseId) results.set(e.toolUseId, e);
    if (e.kind === 'tool_use') calls.add(e.id);
  }
  const lines: string[] = [];
  for (const e of events) {
    switch (e.kind) {
      case 'user':
        lines.push(`Developer: ${cut(e.text, DEVELOPER_CHARS)}`);
        break;
      case 'assistant':
        lines.push(`Assistant: ${cut(e.text, ASSISTANT_CHARS)}`);
        break;
      case 'compact_summary':
        lines.push(
          `[Summary of the earlier part of this session, written at compaction]\n${cut(e.text, SUMMARY_CHARS)}`,
        );
        break;
      case 'tool_use': {
        const r = results.get(e.id);
        const outcome = r ? ` → ${r.isError ? 'error: ' : ''}${r.summary}` : '';
        lines.push(`Tool ${e.name}(${e.summary})${outcome}`);
        break;
      }
      case 'tool_result':
        // shown with its call; an orphan result (call in an earlier part) stands alone
        if (!calls.has(e.toolUseId)) {
          lines.push(`Tool result${e.isError ? ' (error)' : ''}: ${e.summary}`);
        }
        break;
    }
  }
  return lines;
}
