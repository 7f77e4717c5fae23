/**
 * Rules where a name or a label decides: `NAME=value`, `"name": "value"`, `--flag value`,
 * `Authorization: Bearer …`, `scheme://user:password@host`, `<password>…</password>`. Only the
 * value is replaced; the name stays so a reader still knows what stood there. Whether a loose
 * value is a secret is judged in secret-values.ts.
 */
import { PLACEHOLDER_PREFIX, placeholder } from './placeholder.js';
import { B, BARE, Q, type RedactionRule, SECRET_NAME, SP, WB } from './rule-parts.js';
import { type AssignmentStyle, assignment, idLabel, looksRandom, secretLabel } from './secret-values.js';

/** A value: inside (maybe escaped) quotes anything but the closing quote, else bare characters. */
const VALUE = [
  '(?<value>(?<=\\\\")(?:[^"\\\\\\n]|\\\\[^"\\n])+(?=\\\\")',
  '(?<=")[^"\\n]+(?=")',
  "(?<=')[^'\\n]+(?=')",
  '(?<=`)[^`\\n]+(?=`)',
  `${BARE}+)`,
].join('|');

/**
 * Labels between a secret's name and its value (`the token: MY_SERVICE_KEY: 5352…`): each is
 * skipped so the value after them is judged, not the label.
 */
const LABEL = `(?:[A-Za-z_][A-Za-z0-9_.-]{0,63}(?:${SP}*:${SP}+|=(?=[^\\s=])))`;

/** How sure the writing makes us that the value is a secret (see secret-values.ts). */
function styleOf(sep: string): AssignmentStyle {
  if (sep.includes(':=')) return 'env';
  if (sep.includes('=>')) return 'code';
  if (sep.includes(':')) return 'colon';
  return /\s|\\[nrt]/.test(sep) ? 'code' : 'env';
}

const redactValue = assignment('secret', styleOf);

export const NAMED_VALUE_RULES: readonly RedactionRule[] = [
  {
    kind: 'aws-secret-key',
    pattern: new RegExp(
      `(?<name>${WB}(?:aws_?)?secret_?access_?key|${WB}SecretAccessKey|${WB}aws_?secret(?:_?key)?)(?<sep>${Q}?${SP}*[:=]${SP}*|${SP}+)(?<q>${Q}?)(?<value>[A-Za-z0-9/+=]{20,})\\k<q>`,
      'gi',
    ),
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX)
        ? m
        : `${g.name}${g.sep}${g.q}${placeholder('aws-secret-key')}${g.q}`,
  },
  {
    kind: 'connection-password',
    // scheme://user:password@host — the user and host stay. The user may be a placeholder
    // already (`s3://[REDACTED:aws-access-key-id]:…@bucket`) and the password may hold a `/`
    // (AWS secret keys do); digits before a `/` are a port (`host:3000/path?to=a@b`)
    pattern:
      /\b(?<scheme>[a-z][a-z0-9+.-]*:\/\/)(?<user>(?:\[REDACTED:[a-z-]+\]|[^\s:@/"'`])*):(?<value>[^\s@"'`]+)@(?=[^\s@])/gi,
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX) ||
      /^\$\{?\w+\}?$/.test(g.value ?? '') ||
      /^\d{1,5}(?:\/|$)/.test(g.value ?? '')
        ? m
        : `${g.scheme}${g.user}:${placeholder('connection-password')}@`,
  },
  {
    kind: 'auth-header',
    pattern: new RegExp(
      `(?<name>${WB}(?:Proxy-)?Authorization)(?<sep>${Q}?${SP}*[:=]${SP}*${Q}?)(?<scheme>Bearer|Basic|Token|Digest|Bot)${SP}+(?<value>${BARE}+)`,
      'gi',
    ),
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX) || /^\$\{?\w+\}?$/.test(g.value ?? '')
        ? m
        : `${g.name}${g.sep}${g.scheme} ${placeholder(`${(g.scheme ?? 'bearer').toLowerCase()}-credentials`)}`,
  },
  {
    kind: 'bearer-token',
    pattern: new RegExp(`${WB}Bearer${SP}+(?<value>[A-Za-z0-9._~+/-]{16,}=*)`, 'g'),
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX) ? m : `Bearer ${placeholder('bearer-token')}`,
  },
  {
    kind: 'basic-auth',
    // curl -u user:pass / --user user:pass
    pattern:
      /(?<lead>(?:^|\s|\\[nrt])(?:-u|--user)[\s=]+)(?<q>["']?)(?<name>[^\s:"']+:)(?<value>[^\s"'\\]+)\k<q>/g,
    replace: (m, g) =>
      g.value?.startsWith(PLACEHOLDER_PREFIX)
        ? m
        : `${g.lead}${g.q}${g.name}${placeholder('basic-auth')}${g.q}`,
  },
  {
    kind: 'secret-assignment',
    // XML / HTML: <password>…</password>, <db.password attr="x">…</db.password>
    pattern: new RegExp(
      `(?<lead><)(?<name>[A-Za-z0-9_.:-]{0,48}${SECRET_NAME})(?<sep>(?:\\s[^<>]*)?>)(?<value>[^<\\n]+)(?=</\\k<name>\\s*>)`,
      'gi',
    ),
    replace: assignment('secret', 'env'),
  },
  {
    kind: 'secret-assignment',
    // CLI flag: --password hunter2, --api-key=…
    pattern: new RegExp(
      `(?<lead>(?:^|\\s|\\\\[nrt]|${B}))(?<name>--?[A-Za-z0-9-]{0,48}${SECRET_NAME})(?<sep>[ =])(?<q>${Q}?)${VALUE}\\k<q>`,
      'gi',
    ),
    replace: assignment('secret', 'env'),
  },
  {
    kind: 'secret-assignment',
    // env / shell / .env / URL query / YAML / JSON / code: NAME=value, "name": "value", name: value.
    // A name inside a path is not one (`ghcr.io/acme/reset-secret:v1.2`, an image and its tag)
    pattern: new RegExp(
      `(?<name>(?<!/[A-Za-z0-9_.-]{0,48})\\b[A-Za-z0-9_.-]{0,48}${SECRET_NAME})(?![A-Za-z0-9])(?<sep>${Q}?${SP}*(?::=|=>|=|:(?!:))${SP}*)(?<labels>${LABEL}*)(?<q>${Q}?)${VALUE}\\k<q>`,
      'gi',
    ),
    replace: redactValue,
  },
  {
    kind: 'high-entropy',
    // a random-looking value next to a name that suggests a key, even a loose one (signingKey, KEY)
    pattern: new RegExp(
      `(?<name>\\b[A-Za-z0-9_.-]{0,48}(?:key|secret|token|auth|cred|sig|salt|pass|cookie)[A-Za-z0-9_]{0,24})(?<sep>${Q}?${SP}*(?::=|=>|=|:)${SP}*)(?<q>${Q}?)(?<value>[A-Za-z0-9+/=_.~-]{16,})\\k<q>`,
      'gi',
    ),
    replace: (m, g) => {
      const v = g.value ?? '';
      const name = g.name ?? '';
      if (v.startsWith(PLACEHOLDER_PREFIX) || idLabel(name) || !looksRandom(v, secretLabel(name))) return m;
      return `${g.name}${g.sep}${g.q}${placeholder('high-entropy')}${g.q}`;
    },
  },
];
