import type { TimeTravel } from '../../database/as-of.js';
import { AgentctxError } from '../../shared/errors.js';
import { parseTimePoint } from '../../shared/time-point.js';
import { optional, string } from '../schema.js';

/** The `as_of` argument of ctx_search and ctx_get: a history query (CONTRACTS.md §history), not a tool. */
export const asOfField = optional(
  string({
    min: 10,
    max: 40,
    description:
      'History: answer as of this date (2026-05-01 = end of that day, UTC) or date-time (2026-05-01T14:30Z): the records valid then, including those superseded since.',
  }),
);

export function timeTravelOf(asOf: string | undefined): TimeTravel | undefined {
  if (asOf === undefined) return undefined;
  const t = parseTimePoint(asOf);
  if (!t) {
    throw new AgentctxError(
      'invalid_input',
      `as_of must be a date (2026-05-01) or a date-time (2026-05-01T14:30Z); got ${JSON.stringify(asOf)}`,
      { field: 'as_of' },
    );
  }
  return { asOf: t };
}
