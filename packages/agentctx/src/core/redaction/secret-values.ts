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

/** Names that say "a version or an object id", whose random-looking values are not secrets. */
const ID_WORDS = new Set(
  'commit sha rev revision head parent tree oid digest checksum integrity etag blob version request trace name'.split(
    ' ',
  ),
);

/** The words of a name: `keyCommit` → key, commit; `head_sha256` → head, sha. */
function nameWords(name: string): string[] {
  return name
    .split(/[^A-Za-z0-9]+|(?<=[a-z0-9])(?=[A-Z])/)
    .map((w) => w.replace(/\d+$/, '').toLowerCase())
    .filter(Boolean);
}

/**
 * Whether a name says its value is a key: then a 40-hex, a UUID or a long number next to it is
 * a secret (a GCP `private_key_id`, a `SIGNING_KEY` UUID), where alone it would be an id.
 */
export function secretLabel(name: string): boolean {
  return /key|secret|token|pass|cred|salt/i.test(name) && !idLabel(name);
}

/** A name for an object id or version (`keyCommit`, `tokenizer_revision`), whatever else it holds. */
export function idLabel(name: string): boolean {
  return nameWords(name).some((w) => ID_WORDS.has(w));
}

/** Identifiers and paths that are random-looking but not secrets: UUIDs, ULIDs, git SHAs, paths. */
function isOrdinaryId(s: string): boolean {
  return (
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s) ||
    /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/.test(s) ||
    /^[0-9a-f]{40}$/.test(s)
  );
}

function isPathOrMember(s: string): boolean {
  return (
    /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(s) ||
    /^[~.]{0,2}\//.test(s) ||
    /^(?:[a-z0-9._-]+\/)+[a-z0-9._-]*$/.test(s)
  );
}

/**
 * Looks random: long, varied characters, several character classes. Next to a name that says
 * it holds a key (`keyLabel`), ids count too: the label decides what a 40-hex value is.
 */
export function looksRandom(s: string, keyLabel = false): boolean {
  if (s.length < 16 || s.startsWith(PLACEHOLDER_PREFIX) || isPathOrMember(s)) return false;
  if (isOrdinaryId(s)) return keyLabel;
  if (keyLabel && /^\d{16,}$/.test(s)) return entropy(s) >= 2.5;
  const classes =
    Number(/[a-z]/.test(s)) + Number(/[A-Z]/.test(s)) + Number(/[0-9]/.test(s)) + Number(/[+/=_-]/.test(s));
  if (classes < 2) return false;
  return entropy(s) >= 3.3;
}

/**
 * A value a key generator made, judged where the context already says "key" (after an access
 * key id, a provider's name, in a connection string or a `NAME=` line): 20 characters or more,
 * `minClasses` of upper, lower and digits, varied, and not an id, a hash in hex, a path or an
 * identifier built of words (`src/TokenRefresh/handler2`, `ProdStack2024Api`).
 */
export function looksGenerated(v: string, minClasses: 2 | 3): boolean {
  if (v.length < 20 || v.startsWith(PLACEHOLDER_PREFIX) || isOrdinaryId(v)) return false;
  const core = v.replace(/=+$/, '');
  if (/^[0-9a-f]+$/i.test(core) || /^sha(?:1|256|384|512)-/.test(core)) return false;
  const classes = Number(/[a-z]/.test(core)) + Number(/[A-Z]/.test(core)) + Number(/[0-9]/.test(core));
  if (classes < minClasses) return false;
  if (readsAsWords(core)) return false;
  return entropy(core) >= Math.min(4, 0.8 * Math.log2(core.length));
}

/**
 * Built of words, the way a person names things (`maxManagerStoreHandler2`, `src/auth/Token`,
 * `ProdStack2024Api`): split at separators, case changes and digits, every piece is a number,
 * a short acronym or a word that reads as English. A key generator's output almost never is.
 */
function readsAsWords(v: string): boolean {
  const pieces = v
    .split(
      /[/_.+=-]+|(?<=[a-z])(?=[A-Z0-9])|(?<=[0-9])(?=[A-Za-z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Z])(?=[0-9])/,
    )
    .filter(Boolean);
  return pieces.every(
    (p) =>
      /^\d+$/.test(p) ||
      /^[A-Z]{2,5}$/.test(p) ||
      (/^[A-Z]?[a-z]{2,}$/.test(p) &&
        readsAsWord(p.toLowerCase()) &&
        (p.length >= 4 || CODE_WORDS.has(p.toLowerCase()) || /[aeiou]/i.test(p))),
  );
}

/** Words code is written with; a random string almost never splits into one of them. */
const CODE_WORDS = new Set(
  (
    'access account admin api app arg args aws auth base bucket bearer body cfg client config conf context cookie cred creds credential ' +
    'credentials ctx cur current data db decoded default digest dummy encoded encryption env example fake fetch ' +
    'field form from generated get global hash hashed header headers http https id input instance is json jwt key keys load local ' +
    'master mock my name new next old opts options param params pass passwd password payload placeholder ' +
    'parse prev private props proxy public pwd query random raw read refresh req request res response result salt ' +
    'sample saved secret secrets self server service session set sha signing sql ssh state stored str string temp test ' +
    'text this tmp token tokens url user valid val value xml'
  ).split(' '),
);

/**
 * One lowercase word that reads as English (prose after a label: "Password: forgotten"), not
 * letters drawn at random: enough vowels, few rare letters, no long consonant runs, no letter
 * pairs English does not write. Short words always pass.
 */
function readsAsWord(w: string): boolean {
  if (w.length < 6) return true;
  if ((w.match(/[aeiouy]/g) ?? []).length / w.length < 0.25) return false;
  if ((w.match(/[jqxz]/g) ?? []).length > 1) return false;
  if (/[bcdfghjklmnpqrstvwxz]{4}/.test(w)) return false;
  if (/[aeiou]{3}/.test(w) && !/eau|iou|eou|uee|ooe/.test(w)) return false;
  return !/q[^u]|[jqxz]{2}|[bcdfgkmpvw][qx]|v[bcdfgjkmpqtwxz]|w[bcdfgjkmpqvxz]|hh|jj|kk|vv|ww|yy/.test(w);
}

/**
 * Reads as a name a person wrote, not as a key: one word of prose or a short constant (`the`,
 * `hunter2`, `NONE`), or an identifier in camel, snake or screaming case built with a word code
 * is written with (`newToken`, `hashedPassword`, `MY_SERVICE_KEY`). A random string of letters
 * and digits almost never passes (`ovvDz8Qkc78T` splits into `ovv Dz8 Qkc78 T`).
 */
function readsAsName(v: string): boolean {
  if (!/^[A-Za-z_$][\w$]*$/.test(v)) return false;
  if (/^[A-Z]?[a-z]+\d{0,3}$/.test(v)) return readsAsWord(v.replace(/\d+$/, '').toLowerCase());
  if (/^[A-Z]{1,8}\d{0,3}$/.test(v)) return true;
  const words = v.split(/[_$]+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/).filter(Boolean);
  if (!words.every((w) => /^(?:[A-Za-z][a-z]*|[A-Z]+)\d{0,3}$/.test(w))) return false;
  const letters = words.map((w) => w.replace(/\d+$/, ''));
  if (words.filter((w) => /\d$/.test(w)).length > 1) return false;
  if (letters.slice(1, -1).some((w) => w.length < 2)) return false;
  if (letters.some((w) => w.length >= 3 && !/[aeiouy]/i.test(w) && !CODE_WORDS.has(w.toLowerCase())))
    return false;
  // code words make up a fair share of it (`q__ylookup2Set` is not code for holding a `Set`)
  const known = letters.filter((w) => CODE_WORDS.has(w.toLowerCase())).join('').length;
  return known >= 0.3 * letters.join('').length;
}

/** Code, not a value: `options.token`, `getSecret()`, `tokens[0]`, `newToken`. */
function isCode(v: string): boolean {
  if (/[()[\]{}]/.test(v)) return true;
  const parts = v.split('.');
  return parts.length > 1 ? parts.every(readsAsName) : readsAsName(v);
}

/**
 * How a name and its value were written, which decides how sure we are the value is a secret:
 * `env` (NAME=value, --flag value, a quoted value) always; `colon` (YAML, prose "Token: the…")
 * and `code` (name = value) unless the value reads as code, a name or a word, or a small number.
 */
export type AssignmentStyle = 'env' | 'colon' | 'code';

function keepValue(value: string, name: string, quoted: boolean, style: AssignmentStyle): boolean {
  if (value.length < 3 || value.startsWith(PLACEHOLDER_PREFIX) || NOT_A_VALUE.test(value)) return true;
  if (name.toLowerCase().replace(/^-+/, '') === value.toLowerCase()) return true;
  if (quoted || style === 'env') return false;
  if (/^\d{1,6}$/.test(value)) return true;
  return isCode(value);
}

/** Labels written between a name and its value (`MY_SERVICE_KEY: `); `=` labels are env names. */
function validLabels(labels: string): boolean {
  return labels
    .split(/(?<=:\s+|:(?:\\[nrt])+|=)/)
    .filter(Boolean)
    .every((l) => !l.endsWith('=') || /^[A-Z_][A-Z0-9_]*=$/.test(l));
}

/**
 * The replacer for a `name <sep> [labels] value` rule (named groups lead, name, sep, labels, q,
 * value): only the value becomes the placeholder, and only when it is a secret for that style
 * of writing. Labels between name and value are kept; the last one's separator sets the style.
 */
export function assignment(kind: string, style: AssignmentStyle | ((sep: string) => AssignmentStyle)) {
  return (match: string, g: Record<string, string | undefined>): string => {
    let labels = g.labels ?? '';
    let value = g.value ?? '';
    let q = g.q ?? '';
    if (labels && !validLabels(labels)) {
      // not labels after all (`PASSWORD=abc=def`): everything after the separator is the value
      value = `${labels}${q}${value}${q}`;
      labels = '';
      q = '';
    }
    const sep = labels ? (/=$/.test(labels) ? '=' : ': ') : (g.sep ?? '');
    const st = typeof style === 'function' ? style(sep) : style;
    if (keepValue(value, g.name ?? '', q !== '', st)) return match;
    return `${g.lead ?? ''}${g.name ?? ''}${g.sep ?? ''}${labels}${q}${placeholder(kind)}${q}`;
  };
}
