/**
 * The built-in rule table: which secrets redaction knows, most specific first. The engine that
 * applies it is redact.ts; the judgement of loose values is secret-values.ts.
 *
 * Rules run in order; placeholders never match a later rule, so redacting twice changes
 * nothing. Prefixed tokens need only a short tail after their prefix, because the transcript
 * reader cuts long lines before redaction and a cut token must still go.
 *
 * To add a rule: give it a `kind` (the placeholder's type) and a global (`g`) pattern, and put
 * it before any looser rule that would otherwise take its match (the assignment and
 * high-entropy rules stay last).
 */
import { PLACEHOLDER_PREFIX, placeholder } from './placeholder.js';
import { assignment, looksRandom } from './secret-values.js';

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

/** Words that make a name key-like: its value is a secret whatever it looks like. */
const SECRET_NAME =
  '(?:password|passwd|passphrase|secret|token|api[_-]?key|apikey|access[_-]?key(?:[_-]?id)?|private[_-]?key|secret[_-]?key|auth[_-]?key|client[_-]?secret|credentials?|signing[_-]?key|encryption[_-]?key|master[_-]?key|session[_-]?key)';

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
      g.value?.startsWith(PLACEHOLDER_PREFIX)
        ? m
        : `${g.name}${g.sep}${g.q}${placeholder('aws-secret-key')}${g.q}`,
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
      g.value?.startsWith(PLACEHOLDER_PREFIX) || /^\$\{?\w+\}?$/.test(g.value ?? '')
        ? m
        : `${g.scheme}${g.user}:${placeholder('connection-password')}@`,
  },
  {
    kind: 'auth-header',
    pattern:
      /(?<name>\b(?:Proxy-)?Authorization)(?<sep>["']?\s*[:=]\s*["']?)(?<scheme>Bearer|Basic|Token|Digest|Bot|token)\s+(?<value>[^\s"'`,;]+)/gi,
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX) || /^\$\{?\w+\}?$/.test(g.value ?? '')
        ? m
        : `${g.name}${g.sep}${g.scheme} ${placeholder(`${(g.scheme ?? 'bearer').toLowerCase()}-credentials`)}`,
  },
  {
    kind: 'bearer-token',
    pattern: /\bBearer\s+(?<value>[A-Za-z0-9._~+/-]{16,}=*)/g,
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX) ? m : `Bearer ${placeholder('bearer-token')}`,
  },
  {
    kind: 'basic-auth',
    // curl -u user:pass / --user user:pass
    pattern: /(?<lead>(?:^|\s)(?:-u|--user)[\s=]+)(?<q>["']?)(?<name>[^\s:"']+:)(?<value>[^\s"']+)\k<q>/g,
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX)
        ? m
        : `${g.lead}${g.q}${g.name}${placeholder('basic-auth')}${g.q}`,
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
      if (v.startsWith(PLACEHOLDER_PREFIX) || !looksRandom(v)) return m;
      return `${g.name}${g.sep}${g.q}${placeholder('high-entropy')}${g.q}`;
    },
  },
];
