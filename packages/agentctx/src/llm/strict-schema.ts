/**
 * OpenAI's structured outputs (what `codex exec --output-schema` asks the model for) take a
 * "strict" JSON schema: every object lists all its properties as required and allows no others.
 * The record_context schema leaves a few fields optional; here each optional field becomes
 * required but nullable, and `withoutNullOptionals` takes those nulls out of the answer again,
 * so the same zod schema validates it as it validates any other backend's.
 */

type Schema = Record<string, unknown>;

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

function nullable(s: Schema): Schema {
  const t = s.type;
  if (typeof t === 'string') return { ...s, type: [t, 'null'] };
  if (Array.isArray(t)) return t.includes('null') ? s : { ...s, type: [...t, 'null'] };
  return { anyOf: [s, { type: 'null' }] };
}

export function strictSchema(schema: Schema): Schema {
  const out: Schema = { ...schema };
  if (isObject(schema.properties)) {
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
    const props: Schema = {};
    for (const [k, v] of Object.entries(schema.properties)) {
      const inner = isObject(v) ? strictSchema(v) : v;
      props[k] = required.has(k) || !isObject(inner) ? inner : nullable(inner);
    }
    out.properties = props;
    out.required = Object.keys(props);
    out.additionalProperties = false;
  }
  if (isObject(schema.items)) out.items = strictSchema(schema.items);
  for (const key of ['anyOf', 'oneOf', 'allOf'])
    if (Array.isArray(schema[key]))
      out[key] = (schema[key] as unknown[]).map((s) => (isObject(s) ? strictSchema(s) : s));
  return out;
}

/** The answer with every null the strict form allowed for an optional field removed. */
export function withoutNullOptionals(value: unknown, schema: Schema): unknown {
  if (Array.isArray(value)) {
    const items = isObject(schema.items) ? schema.items : null;
    return items ? value.map((v) => withoutNullOptionals(v, items)) : value;
  }
  if (!isObject(value) || !isObject(schema.properties)) return value;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const out: Schema = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null && !required.has(k)) continue;
    const sub = schema.properties[k];
    out[k] = isObject(sub) ? withoutNullOptionals(v, sub) : v;
  }
  return out;
}
