/**
 * Whether a part of a session holds anything to remember. A session that only greeted ("hello",
 * "thanks, bye") with no tool use and no compaction has nothing a model could extract and
 * nothing a handover could hand over: it costs no model call and writes no record (issue 31).
 * Pure: judged from the transcript events, no I/O.
 */
import type { TranscriptEvent } from '../../claude/transcript.js';
import { STOPWORDS } from '../../text/stopwords.js';

/** Small talk beyond the function words in STOPWORDS. */
const SMALL_TALK = new Set(
  'bye goodbye cheers morning evening afternoon night good great nice cool thx ty welcome there doing fine well today'.split(
    ' ',
  ),
);

/**
 * Content words the developer typed: letters and digits, not function words or small talk.
 * One is enough (`and pnpm test` is a request); "hello", "hi, how are you?", "thanks, bye" have none.
 */
const CONTENT_WORDS_FOR_WORK = 1;

function contentWords(text: string): number {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}_'-]*/gu) ?? []).filter(
    (w) => !STOPWORDS.has(w.replace(/'.*$/, '')) && !SMALL_TALK.has(w),
  ).length;
}

/** True when the events hold work: a tool call, a compaction, or a developer request of substance. */
export function holdsWork(events: readonly TranscriptEvent[]): boolean {
  let words = 0;
  for (const e of events) {
    if (e.kind === 'tool_use' || e.kind === 'compact_summary') return true;
    if (e.kind === 'user') words += contentWords(e.text);
  }
  return words >= CONTENT_WORDS_FOR_WORK;
}
