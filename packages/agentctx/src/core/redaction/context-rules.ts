/**
 * Rules where the neighbours decide: a value with no label of its own that is a secret because
 * of what stands next to it. A 40-character AWS secret access key has no prefix; written right
 * after its access key id, after a provider's name, inside a connection string or as the value
 * of a `NAME=` line it is still a secret. These run after the token rules (an access key id is
 * already a placeholder here) and the named-value rules (a labelled value is already gone).
 */
import { placeholder } from './placeholder.js';
import type { RedactionRule } from './rule-parts.js';
import { idLabel, looksGenerated } from './secret-values.js';

/** Not preceded by a base64 character (an escaped `\n` does not count, as in rule-parts). */
const B64_START = '(?<!(?<!\\\\)[A-Za-z0-9+/])';
/** A base64 run standing alone: not followed by more base64. */
const B64_END = '(?![A-Za-z0-9+/=])';

/**
 * Providers whose keys come without a prefix: their name within a few words before a generated
 * value makes the value a key (`AWS: wJalr…`, "the azure storage key is …").
 */
const PROVIDERS =
  'aws|amazon|s3|iam|boto3?|azure|gcp|google cloud|cloudflare|datadog|twilio|heroku|digitalocean|' +
  'sentry|mailgun|algolia|okta|auth0|firebase|supabase|vercel|netlify|newrelic|pagerduty|snowflake|circleci';

/** Keep a judged value, or replace only it (whatever stood before it stays). */
function judged(kind: string, minClasses: 2 | 3) {
  return (match: string, g: Record<string, string | undefined>): string => {
    const value = g.value ?? '';
    if (!looksGenerated(value, minClasses)) return match;
    return `${g.lead ?? ''}${placeholder(kind)}`;
  };
}

/** `Name=value;` pairs: an ODBC / ADO / Azure connection string (`Driver={ODBC Driver 18}`). */
const PAIR = '[A-Za-z][A-Za-z0-9 ]{0,40}=(?:\\{[^{}\\n]{0,80}\\}|[^;\\s"\'`]*)';

/** Names in a connection string whose value is a secret whatever it looks like. */
const CONNECTION_SECRET_NAME = /pwd|pass|secret|key|token|sig(?:nature)?$|credential/i;

function redactConnectionString(match: string): string {
  return match
    .split(';')
    .map((pair) => {
      const eq = pair.indexOf('=');
      if (eq < 0) return pair;
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (!value || value.startsWith('[REDACTED:') || idLabel(name)) return pair;
      const named = CONNECTION_SECRET_NAME.test(name.replace(/name$/i, '')) && !/name$/i.test(name);
      if (named ? value.length >= 3 && !/^\$\{?\w+\}?$/.test(value) : looksGenerated(value, 2))
        return `${name}=${placeholder('connection-secret')}`;
      return pair;
    })
    .join(';');
}

export const CONTEXT_RULES: readonly RedactionRule[] = [
  {
    kind: 'aws-secret-key',
    needs: '[REDACTED:aws-access-key-id]',
    // after an access key id (already a placeholder): `AKIA… wJalr…`, `AKIA…:wJalr…`, a CSV row,
    // "key id AKIA… and secret wJalr…"; the gap may hold a few words and one line break. The id
    // is looked behind, not matched: the engine leaves alone a match that starts with a placeholder
    pattern: new RegExp(
      `(?<=\\[REDACTED:aws-access-key-id\\](?:(?!\\[REDACTED)[^\\n]|\\\\n|\\n(?!\\n)){0,80})${B64_START}(?<value>[A-Za-z0-9+/]{40})${B64_END}`,
      'g',
    ),
    replace: judged('aws-secret-key', 2),
  },
  {
    kind: 'provider-key',
    // a provider's name, then within 40 characters of the same line a generated base64 value
    pattern: new RegExp(
      `(?<lead>(?<!(?<!\\\\)[A-Za-z0-9:_-])(?:${PROVIDERS})(?![A-Za-z0-9])[^\\n]{0,40}?)${B64_START}(?<value>[A-Za-z0-9+/]{20,100}=*)${B64_END}`,
      'gi',
    ),
    replace: judged('provider-key', 2),
  },
  {
    kind: 'connection-secret',
    // two or more `Name=value` pairs joined by `;` (the first may follow a quote or a space)
    pattern: new RegExp(`(?<![A-Za-z0-9_=;])(?:${PAIR};)+${PAIR};?`, 'g'),
    replace: (m) => redactConnectionString(m),
  },
  {
    kind: 'env-line',
    // a `NAME=value` line or shell word (.env, `export`, `docker run -e`): a generated value is
    // a key whatever the name, unless the name says it holds an id or a version (GIT_COMMIT, IMAGE_DIGEST)
    pattern:
      /(?<lead>(?:^|\s|\\[nrt])(?:export[ \t]+)?(?<name>[A-Z][A-Z0-9_]{1,63})=(?<q>(?:\\?["'])?))(?<value>[A-Za-z0-9+/=_.-]{20,})(?=\k<q>(?:$|[\s#;]|\\[nrt]))/gm,
    replace: (m, g) =>
      idLabel(g.name ?? '') || !looksGenerated(g.value ?? '', 3)
        ? m
        : `${g.lead ?? ''}${placeholder('env-secret')}`,
  },
];
