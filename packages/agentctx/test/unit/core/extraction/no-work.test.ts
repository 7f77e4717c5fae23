import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { TranscriptEvent } from '../../../../src/claude/transcript.js';
import { holdsWork } from '../../../../src/core/extraction/no-work.js';

/** Issue 31 #2 and #14: a greeting is no work; any tool call or request of substance is. */

const greeting = fc.constantFrom(
  'hello',
  'Hi!',
  'hey there',
  'hi, how are you?',
  'thanks, bye',
  'Good morning :)',
  "what's up",
  'ok thanks',
);
const say = (text: string): TranscriptEvent => ({ kind: 'user', text });
const reply = fc.constantFrom<TranscriptEvent>(
  { kind: 'assistant', text: 'Hello! How can I help you today?' },
  { kind: 'assistant', text: 'Goodbye!' },
);

describe('holdsWork', () => {
  it('greetings and replies alone hold no work', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(greeting.map(say), reply), { minLength: 1, maxLength: 6 }), (events) => {
        expect(holdsWork(events)).toBe(false);
      }),
    );
  });

  it('a tool call, a compaction or one word of substance is work, whatever greets around it', () => {
    const work = fc.constantFrom<TranscriptEvent>(
      { kind: 'tool_use', id: 't1', name: 'Bash', summary: 'npm test', files: [] },
      { kind: 'compact_summary', text: 'Summary of the earlier part.' },
      say('Run npm test before every commit'),
      say('and pnpm test'),
      say('hello, fix the login bug'),
    );
    fc.assert(
      fc.property(
        fc.array(fc.oneof(greeting.map(say), reply)),
        work,
        fc.array(fc.oneof(greeting.map(say), reply)),
        (before, w, after) => {
          expect(holdsWork([...before, w, ...after])).toBe(true);
        },
      ),
    );
  });
});
