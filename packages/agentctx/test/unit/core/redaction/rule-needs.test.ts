import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../../../../src/core/redaction/redact.js';
import { BUILTIN_RULES } from '../../../../src/core/redaction/rules.js';
import { SECRET_FAMILIES, withNoise } from '../../../support/secret-arbitraries.js';

/**
 * A rule's `needs` lets the redactor skip texts without that literal: sound only if the rule can
 * never match a text that lacks it. Checked on every family of generated secrets, in noise, after
 * the rules before it ran (as the redactor runs them), and on the text with the literal removed.
 */
describe('rules that name a literal they need', () => {
  const withNeeds = BUILTIN_RULES.filter((r) => r.needs !== undefined);
  it('has at least one such rule', () => expect(withNeeds.length).toBeGreaterThan(0));

  it('never match a text without their literal', () => {
    const redact = createRedactor();
    const family = fc.oneof(...Object.values(SECRET_FAMILIES).map((f) => withNoise(f)));
    fc.assert(
      fc.property(family, fc.string({ maxLength: 60 }), (s, extra) => {
        const text = redact(`${s.text} ${extra}`);
        for (const rule of withNeeds) {
          const without = text.split(rule.needs!).join('[REDACTED:other]');
          rule.pattern.lastIndex = 0;
          expect(rule.pattern.test(without), rule.kind).toBe(false);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('match where the literal stands, and not once it is gone', () => {
    const b64 = fc
      .stringMatching(/^[A-Za-z0-9+/]{40}$/)
      .filter((v) => /[0-9]/.test(v) && /[a-z]/.test(v) && /[A-Z]/.test(v));
    fc.assert(
      fc.property(b64, fc.constantFrom(' ', ':', ',', ' and secret ', '\n'), (value, gap) => {
        const rule = withNeeds.find((r) => r.kind === 'aws-secret-key')!;
        const text = `${rule.needs}${gap}${value}`;
        rule.pattern.lastIndex = 0;
        expect(rule.pattern.test(text)).toBe(true);
        rule.pattern.lastIndex = 0;
        expect(rule.pattern.test(text.replace(rule.needs!, 'AKIA'))).toBe(false);
      }),
    );
  });
});
