/**
 * The built-in rule table: which secrets redaction knows, most specific first. The engine that
 * applies it is redact.ts; the rules where a name or label decides are in named-value-rules.ts;
 * the judgement of loose values is secret-values.ts.
 *
 * Rules run in order; placeholders never match a later rule, so redacting twice changes
 * nothing. Prefixed tokens need only a short tail after their prefix, because the transcript
 * reader cuts long lines before redaction and a cut token must still go.
 *
 * To add a rule: give it a `kind` (the placeholder's type) and a global (`g`) pattern, and put
 * it before any looser rule that would otherwise take its match (the assignment and
 * high-entropy rules, then the rules where the neighbours decide, stay last).
 */
import { CONTEXT_RULES } from './context-rules.js';
import { NAMED_VALUE_RULES } from './named-value-rules.js';
import { B, type RedactionRule, WB } from './rule-parts.js';

export type { RedactionRule } from './rule-parts.js';

/** Tokens whose own shape says what they are: the whole token goes, whatever stands around it. */
const TOKEN_RULES: readonly RedactionRule[] = [
  {
    kind: 'private-key',
    // whole PEM block; a block cut short (no END line) loses everything up to the cut, its line
    // breaks escaped once (`\n` in JSON) or more (`\\n` in JSON inside JSON)
    pattern:
      /-----BEGIN[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|(?:[A-Za-z0-9+/=:,\- \t\r\n]|\\+[rn])*)/g,
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
    pattern: new RegExp(`${WB}(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA)[0-9A-Z]{12,20}\\b`, 'g'),
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
  { kind: 'google-api-key', pattern: new RegExp(`${WB}AIza[0-9A-Za-z_-]{20,}`, 'g') },
  {
    kind: 'google-oauth',
    pattern: new RegExp(`${WB}ya29\\.[0-9A-Za-z_-]{20,}|${B}GOCSPX-[A-Za-z0-9_-]{10,}`, 'g'),
  },
  { kind: 'npm-token', pattern: new RegExp(`${B}npm_[A-Za-z0-9]{30,}`, 'g') },
  { kind: 'huggingface-token', pattern: new RegExp(`${B}hf_[A-Za-z]{30,}`, 'g') },
  { kind: 'sendgrid-key', pattern: new RegExp(`${WB}SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}`, 'g') },
  {
    kind: 'jwt',
    // header.payload[.signature]; the signature may be cut off
    pattern: new RegExp(`${WB}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{4,}(?:\\.[A-Za-z0-9_-]*)?`, 'g'),
  },
];

export const BUILTIN_RULES: readonly RedactionRule[] = [
  ...TOKEN_RULES,
  ...NAMED_VALUE_RULES,
  ...CONTEXT_RULES,
];
