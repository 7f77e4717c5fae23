/**
 * Which redactor a text was checked with: a short hash of the agentctx version, the built-in
 * rule table (each rule's kind, pattern and replacer) and the user's extra patterns. The scrub
 * (scrub.ts) checks every stored text again when it changes: after an upgrade, or when the
 * user adds a pattern.
 */
import { createHash } from 'node:crypto';
import { VERSION } from '../../version.js';
import { compileExtraPatterns } from './redact.js';
import { BUILTIN_RULES, type RedactionRule } from './rules.js';

function ruleText(r: RedactionRule): string {
  return [r.kind, r.pattern.source, r.pattern.flags, r.replace?.toString() ?? ''].join('\u0000');
}

export function redactorFingerprint(extraPatterns: unknown): string {
  const extra = compileExtraPatterns(extraPatterns).rules;
  const text = [`agentctx ${VERSION}`, ...BUILTIN_RULES.map(ruleText), '--', ...extra.map(ruleText)];
  return createHash('sha256').update(text.join('\n')).digest('hex').slice(0, 16);
}
