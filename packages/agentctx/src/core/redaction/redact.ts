/**
 * Secret redaction: applied to transcript text before it is sent to a model or stored, and to
 * what comes back. Each secret becomes a typed placeholder (`[REDACTED:github-token]`) so a
 * reader still knows what stood there. Pure string work, no I/O, safe for the hook path.
 *
 * Rules run in order, most specific first; placeholders never match a later rule, so
 * redacting twice changes nothing. Prefixed tokens need only a short tail after their prefix,
 * because the transcript reader cuts long lines before redaction and a cut token must still go.
 */

export interface RedactionRule {
  /** The placeholder's type: `[REDACTED:<kind>]`. */
  kind: string;
  pattern: RegExp;
  /**
   * Build the replacement from the match; default: the whole match becomes the placeholder.
   * Return the match unchanged to keep it (a value that is not a secret after all).
   */
  replace?: (match: string, groups: Record<string, string | undefined>) => string;
}

export function placeholder(kind: string): string {
  return `[REDACTED:${kind}]`;
}

const PH = '[REDACTED:';

/** Words that make a name key-like: its value is a secret whatever it looks like. */
const SECRET_NAME =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key|secret[_-]?key|auth[_-]?key|client[_-]?secret|credentials?|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key)';

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
  if (s.length < 16 || s.startsWith(PH) || isOrdinaryId(s)) return false;
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
type AssignmentStyle = 'env' | 'colon' | 'code';

function keepValue(value: string, name: string, quoted: boolean, style: AssignmentStyle): boolean {
  if (value.length < 3 || value.startsWith(PH) || NOT_A_VALUE.test(value)) return true;
  if (name.toLowerCase().replace(/^-+/, '') === value.toLowerCase()) return true;
  if (quoted) return false;
  if (style === 'env') return false;
  if (looksRandom(value)) return false;
  if (style === 'code') return true;
  if (/^\d{1,6}$/.test(value) || isIdentifierLike(value)) return true;
  return /^[A-Za-z]+$/.test(value); // a plain word after "Token:" is prose
}

function assignment(kind: string, style: AssignmentStyle | ((sep: string) => AssignmentStyle)) {
  return (match: string, g: Record<string, string | undefined>): string => {
    const value = g.value ?? '';
    const quoted = g.q !== undefined && g.q !== '';
    const st = typeof style === 'function' ? style(g.sep ?? '') : style;
    if (keepValue(value, g.name ?? '', quoted, st)) return match;
    return `${g.lead ?? ''}${g.name ?? ''}${g.sep ?? ''}${g.q ?? ''}${placeholder(kind)}${g.q ?? ''}`;
  };
}

const B = '(?<![A-Za-z0-9_-])'; // left boundary that also treats - and _ as word characters

export const BUILTIN_RULES: readonly RedactionRule[] = [
  {
    kind: 'private-key',
    // whole PEM block; a block cut short (no END line) loses everything up to the cut
    pattern:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=:,\- \t\r\n]|\\[rn])*)/g,
  },
  { kind: 'anthropic-key', pattern: new RegExp(`${B}sk-ant-[A-Za-z0-9_-]{8,}`, 'g') },
  {
    kind: 'openai-key',
    pattern: new RegExp(
      `${B}sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{8,}|${B}sk-[A-Za-z0-9]{20,}(?:T3BlbkFJ[A-Za-z0-9]+)?`,
      'g',
    ),
  },
  {
    kind: 'aws-access-key-id',
    pattern: /\b(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{12,20}\b/g,
  },
  {
    kind: 'aws-secret-key',
    pattern:
      /(?<name>\b(?:aws_?)?secret_?access_?key|\bSecretAccessKey|\baws_?secret(?:_?key)?)(?<sep>["']?\s*[:=]\s*|\s+)(?<q>["']?)(?<value>[A-Za-z0-9/+=]{20,})\k<q>/gi,
    replace: (m, g) =>
      g.value?.startsWith(PH) ? m : `${g.name}${g.sep}${g.q}${placeholder('aws-secret-key')}${g.q}`,
  },
  {
    kind: 'github-token',
    pattern: new RegExp(`${B}(?:gh[pousr]_[A-Za-z0-9]{10,}|github_pat_[A-Za-z0-9_]{10,})`, 'g'),
  },
  { kind: 'gitlab-token', pattern: new RegExp(`${B}gl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{10,}`, 'g') },
  { kind: 'slack-token', pattern: new RegExp(`${B}xox[abprs]-[A-Za-z0-9-]{10,}`, 'g') },
  {
    kind: 'slack-webhook',
    pattern: /https:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9/_-]{8,}/g,
  },
  {
    kind: 'stripe-key',
    pattern: new RegExp(`${B}(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{10,}|${B}whsec_[A-Za-z0-9]{16,}`, 'g'),
  },
  { kind: 'google-api-key', pattern: /\bAIza[0-9A-Za-z_-]{20,}/g },
  {
    kind: 'google-oauth',
    pattern: new RegExp(`\\bya29\\.[0-9A-Za-z_-]{20,}|${B}GOCSPX-[A-Za-z0-9_-]{10,}`, 'g'),
  },
  { kind: 'npm-token', pattern: new RegExp(`${B}npm_[A-Za-z0-9]{30,}`, 'g') },
  { kind: 'huggingface-token', pattern: new RegExp(`${B}hf_[A-Za-z]{30,}`, 'g') },
  { kind: 'sendgrid-key', pattern: /\bSG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}/g },
  {
    kind: 'jwt',
    // header.payload[.signature]; the signature may be cut off
    pattern: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{4,}(?:\.[A-Za-z0-9_-]*)?/g,
  },
  {
    kind: 'connection-password',
    // scheme://user:password@host — the user and host stay
    pattern: /\b(?<scheme>[a-z][a-z0-9+.-]*:\/\/)(?<user>[^\s:@/"'`]*):(?<value>[^\s@/"'`]+)@(?=[^\s@])/gi,
    replace: (m, g) =>
      g.value?.startsWith(PH) || /^\$\{?\w+\}?$/.test(g.value ?? '')
        ? m
        : `${g.scheme}${g.user}:${placeholder('connection-password')}@`,
  },
  {
    kind: 'auth-header',
    pattern:
      /(?<name>\b(?:Proxy-)?Authorization)(?<sep>["']?\s*[:=]\s*["']?)(?<scheme>Bearer|Basic|Token|Digest|Bot|token)\s+(?<value>[^\s"'`,;]+)/gi,
    replace: (m, g) =>
      g.value?.startsWith(PH) || /^\$\{?\w+\}?$/.test(g.value ?? '')
        ? m
        : `${g.name}${g.sep}${g.scheme} ${placeholder(`${(g.scheme ?? 'bearer').toLowerCase()}-credentials`)}`,
  },
  {
    kind: 'bearer-token',
    pattern: /\bBearer\s+(?<value>[A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (m, g) => (g.value?.startsWith(PH) ? m : `Bearer ${placeholder('bearer-token')}`),
  },
  {
    kind: 'basic-auth',
    // curl -u user:pass / --user user:pass
    pattern: /(?<lead>(?:^|\s)(?:-u|--user)[\s=]+)(?<q>["']?)(?<name>[^\s:"']+:)(?<value>[^\s"']+)\k<q>/g,
    replace: (m, g) =>
      g.value?.startsWith(PH) ? m : `${g.lead}${g.q}${g.name}${placeholder('basic-auth')}${g.q}`,
  },
  {
    kind: 'secret-assignment',
    // CLI flag: --password hunter2, --api-key=…
    pattern: new RegExp(
      `(?<lead>(?:^|\\s))(?<name>--?[A-Za-z0-9-]{0,48}${SECRET_NAME})(?<sep>[ =])(?<q>["']?)(?<value>[^\\s"'\`]+)\\k<q>`,
      'gi',
    ),
    replace: assignment('secret', 'env'),
  },
  {
    kind: 'secret-assignment',
    // env / shell / .env / URL query / YAML / JSON: NAME=value, "name": "value", name: value
    pattern: new RegExp(
      `(?<name>\\b[A-Za-z0-9_.-]{0,48}${SECRET_NAME})(?![A-Za-z0-9])(?<sep>["']?(?:=|\\s*:(?!:)\\s*|\\s+=\\s+|\\s*:=\\s*))(?<q>["'\`]?)(?<value>(?:(?<=")[^"\\n]+(?="))|(?:(?<=')[^'\\n]+(?='))|(?:(?<=\`)[^\`\\n]+(?=\`))|[^\\s"'\`,;&)}\\]]+)\\k<q>`,
      'gi',
    ),
    replace: assignment('secret', (sep) =>
      sep.includes(':=') ? 'env' : sep.includes(':') ? 'colon' : /\s/.test(sep) ? 'code' : 'env',
    ),
  },
  {
    kind: 'high-entropy',
    // a random-looking value next to a name that suggests a key, even a loose one (signingKey, KEY)
    pattern:
      /(?<name>\b[A-Za-z0-9_.-]{0,48}(?:key|secret|token|auth|cred|sig|salt|pass|cookie)[A-Za-z0-9_]{0,24})(?<sep>["']?\s*(?:=|:|:=|=>)\s*)(?<q>["'`]?)(?<value>[A-Za-z0-9+/=_.~-]{16,})\k<q>/gi,
    replace: (m, g) => {
      const v = g.value ?? '';
      if (v.startsWith(PH) || !looksRandom(v)) return m;
      return `${g.name}${g.sep}${g.q}${placeholder('high-entropy')}${g.q}`;
    },
  },
];

export interface PatternError {
  pattern: string;
  error: string;
}

export interface CompiledPatterns {
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
  rule.pattern.lastIndex = 0;
  return text.replace(rule.pattern, (...args: unknown[]) => {
    const match = args[0] as string;
    const last = args[args.length - 1];
    const groups = (typeof last === 'object' && last !== null ? last : {}) as Record<
      string,
      string | undefined
    >;
    if (match.startsWith(PH)) return match;
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
