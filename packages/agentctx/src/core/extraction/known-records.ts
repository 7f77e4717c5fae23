import { namespacesOf, type RecordsDeps } from '../records/records.js';
import type { KnownRecord } from './prompt.js';

/**
 * The existing records an extraction prompt lists (ids, types, titles, confidence): what the
 * model must not write again, may supersede (decisions) or may report as seen again
 * (`reinforces`, CONTRACTS.md §confidence). Decisions, conventions, preferences and the gotchas a
 * model wrote (discoveries from extraction), of the project and the global profile.
 *
 * A sighting can only be reported for a listed record, so records still on probation get a share
 * of the list first — inferred before reinforced, newest first — and the newest of the rest
 * fill it up. Without that share an inferred record pushed off the list by newer ones could
 * never be reinforced.
 */

export const KNOWN_LIMIT = 60;
const PROBATION_SHARE = 30;

export function knownRecords(deps: RecordsDeps): KnownRecord[] {
  const ns = namespacesOf(deps.projectId);
  const where = `project_id IN (${ns.map(() => '?').join(',')}) AND superseded_at IS NULL
    AND (type IN ('decision', 'convention', 'preference') OR (type = 'discovery' AND source = 'llm_extraction'))`;
  const probation = deps.db
    .prepare(
      `SELECT id, type, title, confidence FROM records WHERE ${where} AND confidence != 'explicit'
       ORDER BY CASE confidence WHEN 'inferred' THEN 0 ELSE 1 END, recorded_at DESC, id DESC LIMIT ${PROBATION_SHARE}`,
    )
    .all(...ns) as KnownRecord[];
  const taken = new Set(probation.map((r) => r.id));
  const rest = deps.db
    .prepare(
      `SELECT id, type, title, confidence FROM records WHERE ${where}
       ORDER BY recorded_at DESC, id DESC LIMIT ${KNOWN_LIMIT}`,
    )
    .all(...ns) as KnownRecord[];
  const out = [...probation];
  for (const r of rest) {
    if (out.length >= KNOWN_LIMIT) break;
    if (!taken.has(r.id)) out.push(r);
  }
  return out;
}
