import { addEdge } from '../../database/graph-repo.js';
import { getRecord } from '../../database/records-repo.js';
import type { ContextRecord } from '../../shared/types.js';
import { namespacesOf, type RecordsDeps, reinforceRecord } from '../records/records.js';
import type { Reinforcement } from './schema.js';

/**
 * Sightings (CONTRACTS.md §confidence): an inferred record seen again in a later session gains
 * weight, and becomes `reinforced` at `reinforceThreshold` sessions (or at once when the developer
 * stated it directly). A sighting is an `observed_in` edge from the record to the session, so a
 * session counts once however many Stops repeat the fact.
 *
 * A sighting arrives two ways: a candidate whose text is the record's (normalised), or, as the
 * prompt asks, the record's id in `reinforces` (the model judged the meaning; ingest does not
 * guess at paraphrases, since a false match would promote a hypothesis to a fact).
 */

export type SightingOutcome =
  | { kind: 'reinforced'; record: ContextRecord }
  | { kind: 'already_seen' }
  | { kind: 'explicit' }
  | { kind: 'invalid' };

/** Has this session already produced or reinforced the record? */
function seenInSession(deps: RecordsDeps, rec: ContextRecord, sessionId: string): boolean {
  if (rec.session_id === sessionId) return true;
  return (
    deps.db
      .prepare("SELECT 1 FROM edges WHERE from_id = ? AND to_id = ? AND rel_type = 'observed_in' LIMIT 1")
      .get(rec.id, sessionId) !== undefined
  );
}

/** Count one sighting of `rec` in this session, unless it is explicit or the session already counted. */
export function recordSighting(
  deps: RecordsDeps,
  rec: ContextRecord,
  sessionId: string,
  explicit: boolean,
): SightingOutcome {
  if (rec.confidence === 'explicit') return { kind: 'explicit' };
  if (seenInSession(deps, rec, sessionId)) return { kind: 'already_seen' };
  const record = reinforceRecord(deps, rec.id, explicit);
  addEdge(deps.db, deps.newId, rec.id, sessionId, 'observed_in');
  return { kind: 'reinforced', record };
}

/** Types a sighting may reinforce: keyed records (handover, profile) are replaced, not confirmed. */
const SIGHTED_TYPES = new Set(['decision', 'convention', 'preference', 'discovery', 'bugfix']);

/**
 * A `reinforces` entry: honoured only for a current record this project may see (its own or the
 * global profile) of a type that has a confidence lifecycle. Anything else is invalid.
 */
export function sightById(deps: RecordsDeps, r: Reinforcement, sessionId: string): SightingOutcome {
  const rec = getRecord(deps.db, r.id);
  if (!rec || rec.superseded_at || !namespacesOf(deps.projectId).includes(rec.project_id))
    return { kind: 'invalid' };
  if (!SIGHTED_TYPES.has(rec.type)) return { kind: 'invalid' };
  return recordSighting(deps, rec, sessionId, r.confidence === 'explicit');
}
