import { z } from 'zod';
import { extractionAnswerSchema } from './schema.js';

/**
 * The `record_context` tool: the model is forced to call it, and its input schema is the
 * extraction output schema (CONTRACTS.md §extraction-output) plus `reinforces` (re-sightings of listed records by id, CONTRACTS.md §confidence),
 * generated from the zod schema ingest validates with (schema.ts), so the two cannot drift.
 * Generated as the model has always seen it: fields with a default are required (the model
 * gives every field), a nullable string is `type: [string, null]`, and what only ingest enforces
 * (trimmed non-empty strings, no extra properties) is left to ingest, which drops an entry it
 * cannot use instead of failing the whole answer.
 */
function toolSchema(): Record<string, unknown> {
  const generated = z.toJSONSchema(extractionAnswerSchema, {
    io: 'output',
    target: 'draft-07',
    override: ({ jsonSchema: s }) => {
      delete s.default;
      delete s.minLength;
      delete s.additionalProperties;
      const variants = s.anyOf as { type?: string }[] | undefined;
      if (variants?.length === 2 && variants[1]?.type === 'null' && typeof variants[0]?.type === 'string') {
        delete s.anyOf;
        (s as Record<string, unknown>).type = [variants[0].type, 'null'];
      }
    },
  }) as Record<string, unknown>;
  delete generated.$schema;
  return generated;
}

export const RECORD_CONTEXT_TOOL = {
  name: 'record_context',
  description:
    'Record the durable project context found in this session transcript. Call exactly once. ' +
    'Use empty arrays when nothing qualifies; set flush_ok to true when the session holds nothing worth keeping.',
  input_schema: toolSchema(),
};
