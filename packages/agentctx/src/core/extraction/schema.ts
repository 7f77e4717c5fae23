import { z } from 'zod';
import { type BugfixEnrichment, bugfixEnrichmentSchema } from './bugfix-stubs.js';

/**
 * The extraction output schema (CONTRACTS.md §extraction-output), twice: as zod (ingest validation,
 * entry by entry) and as the JSON schema of the `record_context` tool the model is made to call.
 * Keep the two in step.
 */

const confidence = z.enum(['explicit', 'inferred']);
const text = z.string().trim().min(1);

export const decisionSchema = z.object({
  what: text,
  rationale: z.string().trim().default(''),
  supersedes: z.string().trim().min(1).nullable().default(null),
  confidence,
});
export const preferenceSchema = z.object({
  category: z.enum(['style', 'tooling', 'process', 'naming']),
  rule: text,
  confidence,
  scope: z.enum(['project', 'global']),
});
export const conventionSchema = z.object({
  scope: z.enum(['file', 'module', 'project']),
  convention: text,
  confidence,
});
export const gotchaSchema = z.object({ pattern: text, why_it_matters: z.string().trim().default('') });
const stringList = z
  .array(z.string())
  .default([])
  .transform((a) => a.map((s) => s.trim()).filter(Boolean));
/**
 * A listed record the session showed again (CONTRACTS.md §confidence sightings). Not in the
 * contract's own fields (CONTRACTS.md §extraction-output): the prompt asks the model to skip facts
 * a listed record already holds, so a re-sighting comes back by id. A bare id string is taken as an
 * inferred sighting.
 */
export const reinforcementSchema = z.union([
  z.object({ id: text, confidence: confidence.default('inferred') }),
  text.transform((id) => ({ id, confidence: 'inferred' as const })),
]);
export const activeWorkSchema = z.object({
  current_task: z.string().trim().default(''),
  blockers: stringList,
  next_steps: stringList,
  open_questions: stringList,
});

export type Decision = z.infer<typeof decisionSchema>;
export type Preference = z.infer<typeof preferenceSchema>;
export type Convention = z.infer<typeof conventionSchema>;
export type Gotcha = z.infer<typeof gotchaSchema>;
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
