/**
 * A record id as a person types it: the whole ULID, or any unique start of it (the README and
 * the CLI's own output elide ids: `01M91Q44…`). Every command that takes an id resolves it here
 * (issue 31 #9); an ambiguous start lists its candidates.
 */

import type { Db } from '../../database/open.js';
import { getRecord, recordsByIdPrefix } from '../../database/records-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';

/** The shortest start of an id taken as a prefix: shorter ones match too much to be meant. */
const MIN_PREFIX = 4;

/**
 * The record the namespaces may see with this id or id prefix; `what` names the thing in the
 * error ("record", "global profile entry"). Trailing dots or an ellipsis (copied from elided
 * output) are ignored.
 */
export function resolveRecordId(
  db: Db,
  id: unknown,
  namespaces: readonly string[],
  what = 'record',
  hint = '',
): ContextRecord {
  const given = typeof id === 'string' ? id.trim().replace(/(?:…|\.{2,3})$/, '') : '';
  const notFound = () =>
    new AgentctxError('not_found', `no ${what} ${JSON.stringify(id)} in this project${hint}`, { id });
  if (!given) throw notFound();
  const exact = getRecord(db, given) ?? getRecord(db, given.toUpperCase());
  if (exact) {
    if (!namespaces.includes(exact.project_id)) throw notFound();
    return exact;
  }
  if (given.length < MIN_PREFIX || !/^[0-9A-Za-z]+$/.test(given)) throw notFound();
  const hits = recordsByIdPrefix(db, given, namespaces);
  if (hits.length === 1) return hits[0]!;
  if (hits.length === 0) throw notFound();
  const shown = hits.slice(0, 10);
  // one line: the CLI prints an error's first line; JSON callers get the candidates as data
  const list = shown.map((r) => `${r.id} ${r.type} "${r.title}"${r.superseded_at ? ' (superseded)' : ''}`);
  throw new AgentctxError(
    'ambiguous_id',
    `${JSON.stringify(given)} is the start of ${hits.length > 10 ? 'more than 10' : hits.length} ${what}s: ${list.join('; ')}; give more of the id`,
    { id: given, candidates: shown.map((r) => ({ id: r.id, type: r.type, title: r.title })) },
  );
}
