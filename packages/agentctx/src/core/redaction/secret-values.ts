/**
 * Whether a value is a secret: the judgement the rules lean on when a match could also be code,
 * prose or an ordinary identifier. Pure string work, no I/O.
 */
import { PLACEHOLDER_PREFIX, placeholder } from './placeholder.js';

/** Values next to a secret name that are references or code, not secrets. */
const NOT_A_VALUE =
  /^(?:null|nil|none|undefined|true|false|string|number|boolean|any|unknown|str|int|bytes|optional|required|yes|no|changeme|xxx+|\*+|\.{3}|…|redacted|<[^>]*>|\$\{?[A-Za-z_][\w.]*\}?|%[A-Za-z_]\w*%|\{\{[^}]*\}\}|process\.env\.\w+|os\.environ.*|env\.\w+|getenv.*)$/i;

/** Shannon entropy in bits per character. */
export function entropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    h -= p * Math.log2(p);
  }
  return h;
}

/** Identifiers and paths that are random-looking but not secrets: UUIDs, ULIDs, git SHAs, paths. */
function isOrdinaryId(s: string): boolean {
  return (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) ||
    /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(s) ||
    /^[0-9a-f]{40}$/.test(s) ||
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(s) ||
    /^[~.]{0,2}\//.test(s) ||
    /^(?:[a-z0-9._-]+\/)+[a-z0-9._-]*$/.test(s)
  );
}

/** Looks random: long, varied characters, several character classes. */
export function looksRandom(s: string): boolean {
  if (s.length < 16 || s.startsWith(PLACEHOLDER_PREFIX) || isOrdinaryId(s)) return false;
  const classes =
    Number(/[a-z]/.test(s)) + Number(/[A-Z]/.test(s)) + Number(/[0-9]/.test(s)) + Number(/[+/=_-]/.test(s));
  if (classes < 2) return false;
  return entropy(s) >= 3.3;
}

function isIdentifierLike(v: string): boolean {
  // `token = options.token`, `secret=getSecret()`, `token: newToken` — code, not a value
  return (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v) ||
    /[()]/.test(v) ||
    /^[a-z_$][a-z0-9_$]*[A-Z][\w$]*$/.test(v)
  );
}

/**
 * How a name and its value were written, which decides how sure we are the value is a secret:
 * `env` (NAME=value, --flag value) always; `colon` (YAML, JSON, prose "Token: the…") unless
 * it is code-like or a plain word; `code` (name = value) only quoted or random-looking values.
 */
export type AssignmentStyle = 'env' | 'colon' | 'code';

function keepValue(value: string, name: string, quoted: boolean, style: AssignmentStyle): boolean {
  if (value.length < 3 || value.startsWith(PLACEHOLDER_PREFIX) || NOT_A_VALUE.test(value)) return true;
  if (name.toLowerCase().replace(/^-+/, '') === value.toLowerCase()) return true;
  if (quoted) return false;
  if (style === 'env') return false;
  if (looksRandom(value)) return false;
  if (style === 'code') return true;
  if (/^\d{1,6}$/.test(value) || isIdentifierLike(value)) return true;
  return /^[A-Za-z]+$/.test(value); // a plain word after "Token:" is prose
}

/**
 * The replacer for a `name <sep> value` rule (named groups lead, name, sep, q, value): only the
 * value becomes the placeholder, and only when it is a secret for that style of writing.
 */
export function assignment(kind: string, style: AssignmentStyle | ((sep: string) => AssignmentStyle)) {
  return (match: string, g: Record<string, string | undefined>): string => {
    const value = g.value ?? '';
    const quoted = g.q !== undefined && g.q !== '';
    const st = typeof style === 'function' ? style(g.sep ?? '') : style;
    if (keepValue(value, g.name ?? '', quoted, st)) return match;
    return `${g.lead ?? ''}${g.name ?? ''}${g.sep ?? ''}${g.q ?? ''}${placeholder(kind)}${g.q ?? ''}`;
  };
}
