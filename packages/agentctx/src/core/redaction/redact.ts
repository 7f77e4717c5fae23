/**
 * Secret redaction: applied to transcript text before it is sent to a model or stored, and to
 * what comes back. Each secret becomes a typed placeholder (`[REDACTED:github-token]`) so a
 * reader still knows what stood there. Pure string work, no I/O, safe for the hook path.
 *
 * This is the engine: it runs the built-in rules (rules.ts), in order, then the user's extra
 * patterns, over a text or every string of a JSON-like value.
 */
import { PLACEHOLDER_PREFIX, placeholder } from './placeholder.js';
import { BUILTIN_RULES, type RedactionRule } from './rules.js';

interface PatternError {
  pattern: string;
  error: string;
}

interface CompiledPatterns {
  rules: RedactionRule[];
  errors: PatternError[];
}

/**
 * Compile user patterns (regex sources from config `redact.extraPatterns`). Invalid ones, and
 * ones that match the empty string, are reported and skipped; nothing here throws.
 */
export function compileExtraPatterns(sources: unknown): CompiledPatterns {
  const rules: RedactionRule[] = [];
  const errors: PatternError[] = [];
  if (sources === undefined || sources === null) return { rules, errors };
  if (!Array.isArray(sources)) {
    errors.push({ pattern: String(sources), error: 'redact.extraPatterns must be a list of strings' });
    return { rules, errors };
  }
  for (const src of sources) {
    if (typeof src !== 'string' || !src) {
      errors.push({ pattern: String(src), error: 'not a non-empty string' });
      continue;
    }
    let re: RegExp;
    try {
      re = new RegExp(src, 'g');
    } catch (err) {
      errors.push({ pattern: src, error: (err as Error).message });
      continue;
    }
    if (re.test('')) {
      errors.push({ pattern: src, error: 'matches the empty string' });
      continue;
    }
    re.lastIndex = 0;
    rules.push({ kind: 'custom', pattern: re });
  }
  return { rules, errors };
}

function applyRule(text: string, rule: RedactionRule): string {
  if (rule.needs !== undefined && !text.includes(rule.needs)) return text;
  rule.pattern.lastIndex = 0;
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const last = args[args.length - 1];
    const groups = (typeof last === 'object' && last !== null ? last : {}) as Record<
      string,
      string | undefined
    >;
    if (match.startsWith(PLACEHOLDER_PREFIX)) return match;
    return rule.replace ? rule.replace(match, groups) : placeholder(rule.kind);
  });
}

export type Redact = (text: string) => string;

/** A redactor over the built-in rules and the user's extra patterns (applied after them). */
export function createRedactor(extra: readonly RedactionRule[] = []): Redact {
  const rules = [...BUILTIN_RULES, ...extra];
  return (text: string) => {
    if (!text) return text;
    let out = text;
    for (const rule of rules) out = applyRule(out, rule);
    return out;
  };
}

/** Redact every string inside a JSON-like value (a model's answer), keeping its shape. */
export function redactDeep<T>(value: T, redact: Redact): T {
  if (typeof value === 'string') return redact(value) as T;
  if (Array.isArray(value)) return value.map((v) => redactDeep(v, redact)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = redactDeep(v, redact);
    return out as T;
  }
  return value;
}

/** The built-in rules only. */
export const redactSecrets: Redact = createRedactor();

/** The redactor for a config's `redact.extraPatterns`, and the patterns it had to skip. */
export function redactorFor(extraPatterns: unknown): { redact: Redact; errors: PatternError[] } {
  const { rules, errors } = compileExtraPatterns(extraPatterns);
  return { redact: createRedactor(rules), errors };
}
