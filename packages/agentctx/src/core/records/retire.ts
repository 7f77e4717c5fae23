import { getRecord } from '../../database/records-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import type { ContextRecord } from '../../shared/types.js';
import { type RecordsDeps, requireVisible } from './records.js';

/**
 * Close a current record of the working project without a successor (`superseded_at` set,
 * `superseded_by` NULL): it stays in history and is never read by default. A team import does
 * this for a block removed from `.agentctx/context.md`, once the developer confirmed it.
 */
export function retireRecord(deps: RecordsDeps, id: string): ContextRecord {
  const run = deps.db.transaction(() => {
    const rec = requireVisible(deps, id);
    if (rec.project_id !== deps.projectId) {
      throw new AgentctxError('invalid_input', `record ${rec.id} is not a record of this project`, { id });
    }
    const res = deps.db
      .prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL')
      .run(deps.clock().toISOString(), rec.id);
    if (res.changes !== 1) {
      throw new AgentctxError('already_superseded', `record ${rec.id} is no longer current`, { id });
    }
    return getRecord(deps.db, rec.id)!;
  });
  return run.immediate();
}
