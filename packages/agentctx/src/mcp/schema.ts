/**
 * The tools' input schemas: each is written once, with these builders, and gives both the JSON
 * Schema that `tools/list` sends (plain data, built when the server starts, nothing converted)
 * and the check of every `tools/call` argument, with the TypeScript type of the checked value.
 * Only what the seven tools use: strings (length, enum), integers (range), booleans, arrays of
 * strings (count), one object of named fields. A check names every field that fails and why.
 */

interface Field<T, O extends boolean = boolean> {
  /** The field's JSON Schema. */
  readonly json: Record<string, unknown>;
  readonly optional: O;
  /** null when `value` fits, else what is wrong with it (the field's name is added by the caller). */
  check(value: unknown): string | null;
  /** Type carrier only (never set). */
  readonly _type?: T;
}

interface Common {
  description?: string;
}

function field<T>(
  json: Record<string, unknown>,
  check: (v: unknown) => string | null,
  description?: string,
): Field<T, false> {
  return { json: description ? { ...json, description } : json, optional: false, check };
}

/** The same field, which may be left out. */
export function optional<T>(f: Field<T, false>): Field<T, true> {
  return { ...f, optional: true };
}

const got = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v;

export function string(opts: Common & { min?: number; max?: number } = {}): Field<string, false> {
  const json: Record<string, unknown> = { type: 'string' };
  if (opts.min !== undefined) json.minLength = opts.min;
  if (opts.max !== undefined) json.maxLength = opts.max;
  return field<string>(
    json,
    (v) => {
      if (typeof v !== 'string') return `expected a string, got ${got(v)}`;
      if (opts.min !== undefined && v.length < opts.min)
        return opts.min === 1
          ? 'must not be empty'
          : `too short: at least ${opts.min} characters, got ${v.length}`;
      if (opts.max !== undefined && v.length > opts.max)
        return `too long: at most ${opts.max} characters, got ${v.length}`;
      return null;
    },
    opts.description,
  );
}

export function oneOf<const V extends readonly string[]>(
  values: V,
  opts: Common = {},
): Field<V[number], false> {
  return field<V[number]>(
    { type: 'string', enum: [...values] },
    (v) =>
      typeof v === 'string' && values.includes(v)
        ? null
        : `expected one of ${values.map((x) => JSON.stringify(x)).join(', ')}, got ${typeof v === 'string' ? JSON.stringify(v.slice(0, 40)) : got(v)}`,
    opts.description,
  );
}

export function integer(opts: Common & { min?: number; max?: number } = {}): Field<number, false> {
  const json: Record<string, unknown> = { type: 'integer' };
  if (opts.min !== undefined) json.minimum = opts.min;
  if (opts.max !== undefined) json.maximum = opts.max;
  return field<number>(
    json,
    (v) => {
      if (typeof v !== 'number' || !Number.isSafeInteger(v))
        return `expected an integer, got ${typeof v === 'number' ? v : got(v)}`;
      if (opts.min !== undefined && v < opts.min) return `too small: at least ${opts.min}, got ${v}`;
      if (opts.max !== undefined && v > opts.max) return `too big: at most ${opts.max}, got ${v}`;
      return null;
    },
    opts.description,
  );
}

export function boolean(opts: Common = {}): Field<boolean, false> {
  return field<boolean>(
    { type: 'boolean' },
    (v) => (typeof v === 'boolean' ? null : `expected true or false, got ${got(v)}`),
    opts.description,
  );
}

export function array<T>(
  items: Field<T, false>,
  opts: Common & { min?: number; max?: number } = {},
): Field<T[], false> {
  const json: Record<string, unknown> = { type: 'array', items: items.json };
  if (opts.min !== undefined) json.minItems = opts.min;
  if (opts.max !== undefined) json.maxItems = opts.max;
  return field<T[]>(
    json,
    (v) => {
      if (!Array.isArray(v)) return `expected an array, got ${got(v)}`;
      if (opts.min !== undefined && v.length < opts.min)
        return `too few items: at least ${opts.min}, got ${v.length}`;
      if (opts.max !== undefined && v.length > opts.max)
        return `too many items: at most ${opts.max}, got ${v.length}`;
      for (let i = 0; i < v.length; i++) {
        const bad = items.check(v[i]);
        if (bad) return `item ${i}: ${bad}`;
      }
      return null;
    },
    opts.description,
  );
}

// biome-ignore lint/suspicious/noExplicitAny: any field type
export type Shape = Record<string, Field<any, boolean>>;

type TypeOf<F> = F extends Field<infer T, boolean> ? T : never;

/** The checked arguments: optional fields may be absent. */
export type Infer<S extends Shape> = {
  [K in keyof S as S[K]['optional'] extends true ? never : K]: TypeOf<S[K]>;
} & {
  [K in keyof S as S[K]['optional'] extends true ? K : never]?: TypeOf<S[K]>;
};

/** The JSON Schema of a tool's arguments. */
export function objectSchema(shape: Shape): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const [name, f] of Object.entries(shape)) {
    properties[name] = f.json;
    if (!f.optional) required.push(name);
  }
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/**
 * Check a tool's arguments: the value, or every problem found ("title: too long …"). Fields the
 * schema does not name are dropped, as unknown keys are ignored.
 */
export function checkObject<S extends Shape>(
  shape: S,
  value: unknown,
): { ok: true; value: Infer<S> } | { ok: false; problems: string[] } {
  const args = value ?? {};
  if (typeof args !== 'object' || Array.isArray(args))
    return { ok: false, problems: [`expected an object of arguments, got ${got(args)}`] };
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(shape)) {
    const v = (args as Record<string, unknown>)[name];
    if (v === undefined) {
      if (!f.optional) problems.push(`${name}: required`);
      continue;
    }
    const bad = f.check(v);
    if (bad) problems.push(`${name}: ${bad}`);
    else out[name] = v;
  }
  return problems.length ? { ok: false, problems } : { ok: true, value: out as Infer<S> };
}
