import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  array,
  boolean,
  checkObject,
  integer,
  objectSchema,
  oneOf,
  optional,
  string,
} from '../../../src/mcp/schema.js';

/** What the JSON Schema a field sends says about a value, checked independently of the field. */
function allowedBy(schema: Record<string, unknown>, v: unknown): boolean {
  switch (schema.type) {
    case 'string':
      if (typeof v !== 'string') return false;
      if (Array.isArray(schema.enum)) return schema.enum.includes(v);
      return (
        v.length >= ((schema.minLength as number) ?? 0) &&
        v.length <= ((schema.maxLength as number) ?? Infinity)
      );
    case 'integer':
      return (
        typeof v === 'number' &&
        Number.isSafeInteger(v) &&
        v >= ((schema.minimum as number) ?? -Infinity) &&
        v <= ((schema.maximum as number) ?? Infinity)
      );
    case 'boolean':
      return typeof v === 'boolean';
    case 'array':
      return (
        Array.isArray(v) &&
        v.length >= ((schema.minItems as number) ?? 0) &&
        v.length <= ((schema.maxItems as number) ?? Infinity) &&
        v.every((x) => allowedBy(schema.items as Record<string, unknown>, x))
      );
    default:
      throw new Error(`no reference for ${String(schema.type)}`);
  }
}

const bounds = fc
  .tuple(fc.integer({ min: 0, max: 12 }), fc.integer({ min: 0, max: 12 }))
  .map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));
const fieldArb = fc.oneof(
  bounds.map((b) => string(b)),
  bounds.map((b) => integer(b)),
  fc.constant(boolean()),
  fc.constant(oneOf(['decision', 'convention', 'bugfix'])),
  fc.tuple(bounds, bounds).map(([b, inner]) => array(string(inner), b)),
);
const valueArb = fc.oneof(
  fc.anything(),
  fc.string({ maxLength: 14 }),
  fc.integer({ min: -3, max: 15 }),
  fc.double({ noNaN: false }),
  fc.constantFrom('decision', 'convention', 'opinion', ''),
  fc.array(fc.oneof(fc.string({ maxLength: 14 }), fc.integer()), { maxLength: 14 }),
);

describe('tool input schemas', () => {
  it('accept exactly the values their JSON Schema allows, and say why for the others', () => {
    fc.assert(
      fc.property(fieldArb, valueArb, (field, value) => {
        const problem = field.check(value);
        expect(problem === null).toBe(allowedBy(field.json, value));
        if (problem !== null) expect(problem.length).toBeGreaterThan(5);
      }),
      { seed: 20, numRuns: 3000 },
    );
  });

  it('check an object of arguments: every failing field named, required ones missing, unknown keys dropped', () => {
    const shape = {
      query: string({ min: 1, max: 20, description: 'what' }),
      limit: optional(integer({ min: 1, max: 15 })),
      history: optional(boolean()),
    };
    expect(objectSchema(shape)).toEqual({
      type: 'object',
      properties: {
        query: { type: 'string', minLength: 1, maxLength: 20, description: 'what' },
        limit: { type: 'integer', minimum: 1, maximum: 15 },
        history: { type: 'boolean' },
      },
      required: ['query'],
    });
    expect(checkObject(shape, { query: 'ledger', extra: 1 })).toEqual({
      ok: true,
      value: { query: 'ledger' },
    });
    expect(checkObject(shape, undefined)).toEqual({ ok: false, problems: ['query: required'] });
    const bad = checkObject(shape, { query: '', limit: 2.5, history: 'yes' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems.map((p) => p.split(':')[0])).toEqual(['query', 'limit', 'history']);
      expect(bad.problems[1]).toMatch(/integer, got 2.5/);
    }
    for (const notAnObject of [[], 'query', 3, null, true]) {
      const r = checkObject(shape, notAnObject);
      expect(r.ok, JSON.stringify(notAnObject)).toBe(false);
    }
  });

  it('an object with no fields takes no arguments and sends no required list', () => {
    expect(objectSchema({})).toEqual({ type: 'object', properties: {} });
    expect(checkObject({}, {})).toEqual({ ok: true, value: {} });
    expect(checkObject({}, { anything: 1 })).toEqual({ ok: true, value: {} });
  });
});
