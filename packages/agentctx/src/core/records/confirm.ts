import { AnchorReader, anchorFiles, fileLinksOf } from '../../database/file-anchors.js';
import { linkRecordEntity, upsertNode } from '../../database/graph-repo.js';
import type { Db } from '../../database/open.js';
import { getRecord } from '../../database/records-repo.js';
import { clearStaleness, staleFilesOf } from '../../database/staleness-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import { type RecordsDeps, reinforceRecord, requireVisible } from './records.js';

/**
 * The developer's "this is still true" (`agentctx confirm`, the review queue, the dashboard): an
 * inferred record becomes reinforced at once (CONTRACTS.md §confidence, one-way), and the record's
 * linked files are anchored again as they are now — a moved file's new path is linked, a deleted
 * file's anchor dropped — so it is no longer stale until they change again.
 */

interface ConfirmOutcome {
  record: ContextRecord;
  /** Whether confidence moved from inferred to reinforced. */
  reinforced: boolean;
  /** Files anchored anew, and anchors dropped for files that are gone. */
  reanchored: number;
  dropped: number;
}

function dropAnchor(db: Db, recordId: string, path: string): number {
  return db.prepare('DELETE FROM file_anchors WHERE record_id = ? AND path = ?').run(recordId, path).changes;
}

export function confirmRecord(deps: RecordsDeps & { projectRoot: string }, id: string): ConfirmOutcome {
  const run = deps.db.transaction((): ConfirmOutcome => {
    const rec = requireVisible(deps, id);
    if (rec.superseded_at) {
      throw new AgentctxError('already_superseded', `record ${rec.id} is no longer current`, { id });
    }
    const reinforced = rec.confidence === 'inferred';
    // the dashboard's "confirm" and the review queue's: the same explicit reinforcement
    if (reinforced) reinforceRecord(deps, rec.id, true);
    const reader = new AnchorReader(deps.projectRoot);
    const nowIso = deps.clock().toISOString();
    let dropped = 0;
    const stale = staleFilesOf(deps.db, [rec.id]).get(rec.id) ?? [];
    for (const f of stale) {
      if (f.state === 'renamed' && f.new_path) {
        linkRecordEntity(
          deps.db,
          rec.id,
          upsertNode(deps.db, deps.newId, rec.project_id, 'file', f.new_path),
        );
        dropped += dropAnchor(deps.db, rec.id, f.path);
      } else if (f.state === 'deleted') dropped += dropAnchor(deps.db, rec.id, f.path);
    }
    const links = fileLinksOf(deps.db, [rec.id]).filter(
      (l) => !stale.some((f) => f.path === l.path && f.state !== 'changed') && reader.state(l.path) !== null,
    );
    const reanchored = anchorFiles(deps.db, reader, links, nowIso, true);
    clearStaleness(deps.db, rec.id);
    return { record: getRecord(deps.db, rec.id)!, reinforced, reanchored, dropped };
  });
  return run.immediate();
}
