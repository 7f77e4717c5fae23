import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExtractionOutput } from '../../../../src/core/extraction/schema.js';
import { RECORD_CONTEXT_TOOL } from '../../../../src/core/extraction/tool-schema.js';

/**
 * The tool's JSON schema is generated from the zod schema ingest uses. Whatever the model sends
 * that the tool's schema allows, ingest keeps whole (no entry dropped, every field carried), and
 * what ingest requires the tool's schema requires too.
 */

type Schema = {
  type?: string | string[];
  enum?: string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
};

/** Values a JSON schema (the subset the tool uses) allows; strings are never blank. */
function arbitraryOf(s: Schema): fc.Arbitrary<unknown> {
  if (s.enum) return fc.constantFrom(...s.enum);
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return fc.oneof(
    ...types.map((t): fc.Arbitrary<unknown> => {
      switch (t) {
        case 'null':
          return fc.constant(null);
        case 'boolean':
          return fc.boolean();
        case 'string':
          return fc.string({ minLength: 1, maxLength: 12 }).filter((x) => x.trim() === x && x !== '');
        case 'array':
          return fc.array(arbitraryOf(s.items!), { maxLength: 3 });
        case 'object': {
          const props = Object.entries(s.properties ?? {}).map(([k, v]) => [k, arbitraryOf(v)] as const);
          return fc.record(Object.fromEntries(props), { requiredKeys: s.required ?? [] });
        }
        default:
          throw new Error(`a schema type the tool does not use: ${t}`);
      }
    }),
  );
}

describe('the record_context tool schema, generated from the ingest schema', () => {
  const schema = RECORD_CONTEXT_TOOL.input_schema as Schema;

  it('every answer the tool schema allows is kept whole by ingest', () => {
    fc.assert(
      fc.property(arbitraryOf(schema), (answer) => {
        const parsed = parseExtractionOutput(answer);
        expect(parsed).not.toBeNull();
        expect(parsed!.invalid).toEqual({});
        const a = answer as Record<string, unknown[] | unknown>;
        for (const key of [
          'decisions',
          'preferences',
          'conventions',
          'gotchas',
          'bugfix_enrichments',
          'reinforces',
        ]) {
          const given = (a[key] as unknown[] | undefined) ?? [];
          const kept = (parsed!.output as unknown as Record<string, unknown[]>)[key] ?? [];
          expect(kept, key).toEqual(given);
        }
      }),
      { seed: 7, numRuns: 300 },
    );
  });

  it('asks the model for every field ingest needs, and lists each section of the answer', () => {
    expect(Object.keys(schema.properties!).sort()).toEqual(
      [
        'active_work',
        'bugfix_enrichments',
        'conventions',
        'decisions',
        'flush_ok',
        'gotchas',
        'preferences',
        'reinforces',
      ].sort(),
    );
    // the sections of CONTRACTS.md §extraction-output are required; the two additions stay optional
    expect(schema.required!.sort()).toEqual(
      ['active_work', 'conventions', 'decisions', 'flush_ok', 'gotchas', 'preferences'].sort(),
    );
    // each entry type: an entry lacking one required field is dropped by ingest
    for (const [key, prop] of Object.entries(schema.properties!)) {
      const item = prop.type === 'array' ? prop.items! : prop;
      if (item.type !== 'object' || key === 'active_work') continue;
      for (const field of item.required ?? []) {
        const sample = fc.sample(arbitraryOf(item), { numRuns: 1, seed: 3 })[0] as Record<string, unknown>;
        delete sample[field];
        // fields ingest fills in when missing (a default), everything else it needs
        const optionalInIngest = [
          'decisions.rationale',
          'decisions.supersedes',
          'gotchas.why_it_matters',
          'bugfix_enrichments.title',
          'reinforces.confidence',
        ].includes(`${key}.${field}`);
        const parsed = parseExtractionOutput({ [key]: [sample] })!;
        expect(parsed.invalid[key] === 1, `${key}.${field}`).toBe(!optionalInIngest);
      }
    }
  });
});
