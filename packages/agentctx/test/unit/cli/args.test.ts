import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMMON_FLAGS, type FlagKind, parseArgs } from '../../../src/cli/args.js';
import { AgentctxError } from '../../../src/shared/errors.js';
import { hostileWord, PROTOTYPE_NAMES } from '../../support/hostile-argv.js';

const SPEC: Record<string, FlagKind> = {
  type: 'string',
  limit: 'number',
  pin: 'boolean',
  'model-tier': 'string',
};

/** Whether `--name` is a flag of SPEC (or its `--no-` form for a boolean). */
function declared(name: string): boolean {
  const all = { ...COMMON_FLAGS, ...SPEC };
  if (Object.hasOwn(all, name)) return true;
  return name.startsWith('no-') && Object.hasOwn(all, name.slice(3)) && all[name.slice(3)] === 'boolean';
}

function usageError(fn: () => unknown): AgentctxError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AgentctxError) return err;
    throw err;
  }
  throw new Error('no error thrown');
}

describe('parseArgs refuses every option it does not declare', () => {
  it.each(PROTOTYPE_NAMES)('--%s is an unknown option, never a flag', (name) => {
    for (const argv of [[`--${name}`, 'x'], [`--${name}=x`], [`--no-${name}`]]) {
      const err = usageError(() => parseArgs(argv, SPEC));
      expect(err.code).toBe('usage');
      expect(err.message).toMatch(/^unknown option /);
    }
  });

  it('refuses any undeclared option name, whatever it holds (generated)', () => {
    fc.assert(
      fc.property(
        hostileWord().filter((w) => !declared(w.split('=')[0]!)),
        fc.constantFrom('space', 'equals'),
        (name, form) => {
          const argv = form === 'equals' ? [`--${name}=v`] : [`--${name}`, 'v'];
          // `--a=b v` names option `a`; a bare `--` ends the options
          if (form === 'space' && (name.includes('=') || name === '')) return;
          const err = usageError(() => parseArgs(argv, SPEC));
          expect(err.code).toBe('usage');
          expect(err.message).toMatch(/^unknown option /);
          expect(err.message).not.toContain('\n');
        },
      ),
      { seed: 2024, numRuns: 400 },
    );
  });

  it('keeps the parsed flags free of inherited names (generated argv of declared flags)', () => {
    const declaredArg = fc.oneof(
      fc.tuple(fc.constant('--type'), hostileWord()),
      fc.tuple(fc.constant('--limit'), fc.integer().map(String)),
      fc.constant(['--pin']),
      fc.constant(['--no-pin']),
      fc.tuple(fc.constant('--model-tier'), hostileWord()),
      hostileWord()
        .filter((w) => !w.startsWith('--'))
        .map((w) => [w]),
    );
    fc.assert(
      fc.property(fc.array(declaredArg, { maxLength: 8 }), (parts) => {
        const argv = parts.flat();
        const parsed = parseArgs(argv, SPEC);
        for (const key of Object.keys(parsed.flags))
          expect(['type', 'limit', 'pin', 'modelTier']).toContain(key);
        for (const name of PROTOTYPE_NAMES) expect(Object.hasOwn(parsed.flags, name)).toBe(false);
        expect(parsed.flags.toString).toBeUndefined();
        expect(parsed.flags.constructor).toBeUndefined();
      }),
      { seed: 7, numRuns: 300 },
    );
  });
});
