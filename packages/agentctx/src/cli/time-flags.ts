import type { TimeTravel } from '../database/as-of.js';
import { AgentctxError } from '../shared/errors.js';
import { parseTimePoint } from '../shared/time-point.js';
import { type ParsedArgs, str } from './args.js';
import type { OptionSpec } from './command.js';

/** `--as-of DATE` and `--known-at DATE` (search, show, export). */
export const TIME_OPTIONS: Record<'as-of' | 'known-at', OptionSpec> = {
  'as-of': { kind: 'string', help: 'what was true on DATE (valid then, not yet superseded)' },
  'known-at': { kind: 'string', help: 'what agentctx had recorded by DATE (with --as-of: as known then)' },
};

export const TIME_USAGE = '[--as-of DATE] [--known-at DATE]';

function point(flags: ParsedArgs['flags'], key: string, name: string): string | undefined {
  const raw = str(flags, key);
  if (raw === undefined) return undefined;
  const t = parseTimePoint(raw);
  if (!t) {
    throw new AgentctxError(
      'usage',
      `--${name} needs a date (2026-05-01: the end of that day, UTC) or a date-time (2026-05-01T14:30Z); got ${JSON.stringify(raw)}`,
    );
  }
  return t;
}

/** The history point the flags ask for; `--known-at` alone asks what was believed true then. */
export function timeTravelFrom(flags: ParsedArgs['flags']): TimeTravel | undefined {
  const asOf = point(flags, 'asOf', 'as-of');
  const knownAt = point(flags, 'knownAt', 'known-at');
  if (!asOf && !knownAt) return undefined;
  return { asOf: asOf ?? knownAt!, ...(knownAt ? { knownAt } : {}) };
}
