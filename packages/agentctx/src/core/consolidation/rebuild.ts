import { clearMergeCandidates, countCandidateRows } from '../../database/consolidation-repo.js';
import type { Db } from '../../database/open.js';
import type { RunState } from './plan.js';
import { vectorWatermarkKey } from './vector-duplicates.js';

/**
 * Merge candidates are derived (CONTRACTS.md §stored-derived, §inv-7): the near-duplicate scans can
 * find them again from the records. The scans are incremental, each with a watermark (the keyword
 * scan's in `consolidation_runs`, the vector scan's in `embedding_meta`), so a deleted candidate list
 * would stay empty behind its watermark. Before the scans, a run checks that the watermarks
 * still describe the rows and starts the scans over when they do not:
 *
 *  - `requested` (`agentctx consolidate --rebuild`): the candidate rows of the run's namespaces
 *    are deleted and both scans start from the first record;
 *  - `lost`: fewer rows than the last run left (rows are only ever added between runs; the
 *    run's own prune is counted when it happens): both scans start over, the rows still there
 *    are kept and found again;
 *  - no keyword watermark (first run, or the run bookkeeping was deleted): the vector scan
 *    starts over too, so the two scans always cover the same records.
 *
 * The developer's dismissals (`merge_dismissals`) are stored, not derived: a rebuild never
 * touches them and never proposes a dismissed pair (database/consolidation-repo.ts).
 *
 * Another project's run may prune `_global` candidates this project's count included; the next
 * run here then rescans once (time-boxed and resumable like any scan): a cost, never a wrong list.
 */

export type RebuildReason = 'requested' | 'lost';

export function prepareCandidateScans(
  db: Db,
  projectId: string,
  namespaces: readonly string[],
  state: RunState,
  requested: boolean,
): RebuildReason | undefined {
  const key = vectorWatermarkKey(projectId);
  let reason: RebuildReason | undefined;
  if (requested) reason = 'requested';
  else if (state.candidate_rows !== undefined && countCandidateRows(db, namespaces) < state.candidate_rows)
    reason = 'lost';
  if (!reason) {
    if (state.near_dup_after === undefined) db.prepare('DELETE FROM embedding_meta WHERE key = ?').run(key);
    return undefined;
  }
  db.transaction(() => {
    if (reason === 'requested') clearMergeCandidates(db, namespaces);
    db.prepare('DELETE FROM embedding_meta WHERE key = ?').run(key);
    db.prepare(
      `UPDATE consolidation_runs SET summary = json_remove(summary, '$.state.near_dup_after', '$.state.candidate_rows')
       WHERE project_id = ? AND json_valid(summary)`,
    ).run(projectId);
  }).immediate();
  delete state.near_dup_after;
  delete state.candidate_rows;
  return reason;
}
