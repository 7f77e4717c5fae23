/**
 * Team conflicts waiting for a person (issue 31 #3): a key of `.agentctx/context.md` changed on
 * both sides. Import keeps every version and notes the key (team-import.ts); export writes all
 * its versions so the other clone sees it too (team-export.ts); here a person's choice is
 * applied: the chosen text becomes current (superseding the head when it is not the head
 * already) and the note goes, so the next export writes one block again.
 */

import { currentHead } from '../../database/records-repo.js';
import {
  clearTeamConflict,
  listTeamConflicts,
  type TeamConflict,
} from '../../database/team-conflicts-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import { type RecordsDeps, supersedeRecord } from '../records/records.js';

const WHY = /\n\nWhy it changed: [^\n]*$/;

const CHOSEN_RATIONALE = 'chosen in agentctx review over the other version of a team conflict';

interface ConflictVersion {
  id: string;
  title: string;
  body: string;
  valid_from: string;
  current: boolean;
}

export interface WaitingConflict {
  key: string;
  detected_at: string;
  /** The versions, oldest first by date; `current` marks the one in force now. */
  versions: ConflictVersion[];
}

/** The conflicts of a project with their versions, each version's text as stored. */
export function waitingConflicts(deps: Pick<RecordsDeps, 'db' | 'projectId'>): WaitingConflict[] {
  const get = deps.db.prepare('SELECT * FROM records WHERE id = ?');
  return listTeamConflicts(deps.db, deps.projectId).flatMap((c) => {
    const records = c.record_ids
      .map((id) => get.get(id) as ContextRecord | undefined)
      .filter((r): r is ContextRecord => !!r);
    if (records.length === 0) return [];
    const head = currentHead(deps.db, records.at(-1)!.id);
    const versions = records
      .map((r) => ({
        id: r.id,
        title: r.title,
        body: r.body.replace(WHY, ''),
        valid_from: r.valid_from,
        current: !!head && sameText(r, head),
      }))
      .sort((a, b) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0));
    return [{ key: c.key, detected_at: c.detected_at, versions }];
  });
}

function sameText(a: ContextRecord, b: ContextRecord): boolean {
  return a.title === b.title && a.body.replace(WHY, '') === b.body.replace(WHY, '');
}

function find(deps: RecordsDeps, key: string): TeamConflict {
  const c = listTeamConflicts(deps.db, deps.projectId).find((x) => x.key === key);
  if (!c) throw new AgentctxError('not_found', `no team conflict waits for key ${key}`, { key });
  return c;
}

/**
 * Keep one version of a conflict: `choice` is a record id of the conflict or its number in the
 * date order `agentctx review` shows (1 = oldest).
 */
export function chooseVersion(
  deps: RecordsDeps,
  key: string,
  choice: string,
): { key: string; kept: string; superseded: string | null } {
  const c = find(deps, key);
  const waiting = waitingConflicts(deps).find((w) => w.key === key)!;
  const n = /^\d+$/.test(choice) ? Number(choice) : 0;
  const picked = n ? waiting.versions[n - 1] : waiting.versions.find((v) => v.id === choice);
  if (!picked) {
    throw new AgentctxError(
      'invalid_input',
      `choose one of the ${waiting.versions.length} versions: 1–${waiting.versions.length} or ${waiting.versions.map((v) => v.id).join(', ')}`,
      { key, choice },
    );
  }
  const head = currentHead(deps.db, c.record_ids.at(-1)!);
  if (!head) throw new AgentctxError('not_found', `the records of team key ${key} are gone`, { key });
  if (head.title === picked.title && head.body.replace(WHY, '') === picked.body) {
    clearTeamConflict(deps.db, deps.projectId, key);
    return { key, kept: head.id, superseded: null };
  }
  const res = supersedeRecord(deps, head.id, {
    title: picked.title,
    body: picked.body,
    rationale: CHOSEN_RATIONALE,
    source: 'cli',
  });
  clearTeamConflict(deps.db, deps.projectId, key);
  return { key, kept: res.new_id, superseded: head.id };
}
