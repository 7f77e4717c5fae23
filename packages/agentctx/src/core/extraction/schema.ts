import { z } from 'zod';
import { type BugfixEnrichment, bugfixEnrichmentSchema, bugfixEnrichmentsSchema } from './bugfix-stubs.js';

/**
 * The extraction output schema (CONTRACTS.md §extraction-output), once, in zod: ingest validates with it entry by entry, and the
 * JSON schema of the `record_context` tool the model is made to call is generated from it
 * (tool-schema.ts), descriptions included. Not on the hook path (extraction runs in its own
 * process).
 */

const confidence = z
  .enum(['explicit', 'inferred'])
  .describe('explicit: the developer said or chose it directly. inferred: a pattern you observed.');
const text = z.string().trim().min(1);

const decisionSchema = z.object({
  what: text.describe('The choice, stated on its own (one or two sentences).'),
  rationale: z.string().trim().default('').describe('Why, as the developer gave it; empty if not given.'),
  supersedes: z
    .string()
    .trim()
    .min(1)
    .nullable()
    .default(null)
    .describe('Id of a listed existing record this decision replaces, else null.'),
  confidence,
});
const preferenceSchema = z.object({
  category: z.enum(['style', 'tooling', 'process', 'naming']),
  rule: text.describe('The preference as a rule, e.g. "Use pnpm, never npm".'),
  confidence,
  scope: z
    .enum(['project', 'global'])
    .describe('global only when the developer says it holds for all their work.'),
});
const conventionSchema = z.object({
  scope: z.enum(['file', 'module', 'project']),
  convention: text,
  confidence,
});
const gotchaSchema = z.object({ pattern: text, why_it_matters: z.string().trim().default('') });
// overwrite, not transform: the type stays an array of strings, so it has a JSON schema
const stringList = z
  .array(z.string())
  .default([])
  .overwrite((a) => a.map((s) => s.trim()).filter(Boolean));
/** A re-sighting as the tool asks for it: an id and how it was seen. */
const reinforcementEntrySchema = z.object({
  id: text.describe('The id of a listed record.'),
  confidence: z
    .enum(['explicit', 'inferred'])
    .default('inferred')
    .describe('explicit: the developer stated or confirmed it directly. inferred: you observed it again.'),
});
/**
 * A listed record the session showed again (CONTRACTS.md §confidence sightings). Not in the
 * contract's own fields (CONTRACTS.md §extraction-output): the prompt asks the model to skip facts
 * a listed record already holds, so a re-sighting comes back by id. A bare id string is taken as an
 * inferred sighting.
 */
const reinforcementSchema = z.union([
  reinforcementEntrySchema,
  text.transform((id) => ({ id, confidence: 'inferred' as const })),
]);
const activeWorkSchema = z
  .object({
    current_task: z.string().trim().default(''),
    blockers: stringList,
    next_steps: stringList,
    open_questions: stringList,
  })
  .describe('Where the work stands at the end of the transcript, for the next session.');

/**
 * The whole answer as the model is asked to give it. `parseExtractionOutput` does not parse it
 * in one go (a bad entry drops alone); it is the source of the tool's input schema.
 */
export const extractionAnswerSchema = z.object({
  decisions: z
    .array(decisionSchema)
    .describe('Technical or architectural choices the developer made or accepted, one per entry.'),
  preferences: z.array(preferenceSchema).describe('How this developer likes to work.'),
  conventions: z.array(conventionSchema).describe('Rules about how code is written in this project.'),
  active_work: activeWorkSchema,
  // not in the output schema of CONTRACTS.md §extraction-output, and optional: bugfix-stubs.ts
  bugfix_enrichments: bugfixEnrichmentsSchema.optional(),
  gotchas: z
    .array(gotchaSchema)
    .describe('Non-obvious behaviour of the codebase or its tools that bit or would bite.'),
  // optional: an answer in the shape of §extraction-output alone is still valid (Claude Code's StructuredOutput,
  // behind the claude-cli backend, rejects an answer missing a required field)
  reinforces: z
    .array(reinforcementEntrySchema)
    .optional()
    .describe(
      'Listed existing records marked inferred or reinforced that this session shows again (the developer ' +
        'restated, applied or confirmed the same fact, in any words), by id. Only ids from the list; empty if none.',
    ),
  flush_ok: z.boolean().describe('true when the session was trivial and nothing should be recorded.'),
});

type Decision = z.infer<typeof decisionSchema>;
type Preference = z.infer<typeof preferenceSchema>;
type Convention = z.infer<typeof conventionSchema>;
type Gotcha = z.infer<typeof gotchaSchema>;
export type ActiveWork = z.infer<typeof activeWorkSchema>;
export type Reinforcement = z.infer<typeof reinforcementSchema>;

export interface ExtractionOutput {
  decisions: Decision[];
  /** Bugfix stubs of the session enriched with cause and fix (bugfix-stubs.ts; absent means none). */
  bugfix_enrichments?: BugfixEnrichment[];
  preferences: Preference[];
  conventions: Convention[];
  active_work: ActiveWork | null;
  gotchas: Gotcha[];
  /** Listed records seen again (optional for callers: absent means none). */
  reinforces?: Reinforcement[];
  flush_ok: boolean;
}

export interface ParsedOutput {
  output: ExtractionOutput;
  /** Entries that failed the schema and were dropped, by section. */
  invalid: Record<string, number>;
}

function entries<T>(raw: unknown, schema: z.ZodType<T>, invalid: Record<string, number>, key: string): T[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    invalid[key] = (invalid[key] ?? 0) + 1;
    return [];
  }
  const out: T[] = [];
  for (const item of raw) {
    const r = schema.safeParse(item);
    if (r.success) out.push(r.data);
    else invalid[key] = (invalid[key] ?? 0) + 1;
  }
  return out;
}

/**
 * Validate model output entry by entry: a bad entry is dropped, the rest kept. Returns null when
 * the output is not an object at all (malformed: nothing can be trusted).
 */
export function parseExtractionOutput(raw: unknown): ParsedOutput | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const o = raw as Record<string, unknown>;
  const invalid: Record<string, number> = {};
  let active_work: ActiveWork | null = null;
  if (o.active_work !== undefined && o.active_work !== null) {
    const r = activeWorkSchema.safeParse(o.active_work);
    if (r.success) active_work = r.data;
    else invalid.active_work = 1;
  }
  return {
    output: {
      decisions: entries(o.decisions, decisionSchema, invalid, 'decisions'),
      bugfix_enrichments: entries(
        o.bugfix_enrichments,
        bugfixEnrichmentSchema,
        invalid,
        'bugfix_enrichments',
      ),
      preferences: entries(o.preferences, preferenceSchema, invalid, 'preferences'),
      conventions: entries(o.conventions, conventionSchema, invalid, 'conventions'),
      active_work,
      gotchas: entries(o.gotchas, gotchaSchema, invalid, 'gotchas'),
      reinforces: entries(o.reinforces, reinforcementSchema, invalid, 'reinforces'),
      flush_ok: o.flush_ok === true,
    },
    invalid,
  };
}
