import { z } from 'zod';
import type { ContextRecord } from '../../shared/types.js';

/**
 * Bugfix enrichment, the extraction contract's part (CONTRACTS.md §types "bugfix: PostToolUse stub
 * + LLM enrichment"): the session's stubs listed in the user message by id, the `bugfix_enrichments`
 * field of the record_context tool, and its validation. Kept apart from the other output sections so
 * the two evolve separately; `enrich-stubs.ts` writes what passes.
 */

/** At most this many stubs are listed per call (a session with more is a storm of one error). */
export const STUBS_LISTED = 30;

export interface StubForPrompt {
  id: string;
  title: string;
  body: string;
}

export function stubForPrompt(r: Pick<ContextRecord, 'id' | 'title' | 'body'>): StubForPrompt {
  return { id: r.id, title: r.title, body: r.body };
}

/**
 * The block put before the rest of the user message when the session has stubs (nothing
 * otherwise, so a session without errors sends exactly what it did before).
 */
export function stubsBlock(
  stubs: readonly StubForPrompt[],
  purpose: 'extract' | 'map' | 'synthesis',
): string {
  if (stubs.length === 0) return '';
  const lines = stubs.map((s) => `- ${s.id} ${s.title}\n  ${s.body.replace(/\s*\n\s*/g, ' | ')}`);
  const ask =
    purpose === 'synthesis'
      ? 'Keep at most one bugfix_enrichments entry per stub id across the parts (the most complete one).'
      : 'For each stub whose cause and fix this transcript shows (the error was understood and then fixed), add an entry to bugfix_enrichments: its stub_id, a short title naming the bug, the cause and the fix, each written to stand on its own. Leave out stubs the transcript does not explain. Only ids from this list.';
  return [
    'Bugfix stubs recorded automatically during this session (id, error title, then the command and its first error line):',
    ...lines,
    ask,
    '',
    '',
  ].join('\n');
}

const text = z.string().trim().min(1);

export const bugfixEnrichmentSchema = z.object({
  stub_id: text.describe('The id of a listed bugfix stub.'),
  title: z.string().trim().default('').describe('The bug in a few words (what broke), not the error text.'),
  cause: text.describe('Why the error happened.'),
  fix: text.describe('What fixed it.'),
});

export type BugfixEnrichment = z.infer<typeof bugfixEnrichmentSchema>;

/** The answer's `bugfix_enrichments` (optional: an answer without it stays valid). */
export const bugfixEnrichmentsSchema = z
  .array(bugfixEnrichmentSchema)
  .describe(
    'Bugfix stubs listed in the message whose cause and fix the transcript shows, by stub id. Empty when no stub is listed or none is explained.',
  );
