import { currentHead, supersessionChain } from '../../database/records-repo.js';
import { upsertTeamLink } from '../../database/team-repo.js';
import { AgentctxError } from '../../shared/errors.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';
import { type RecordsDeps, requireVisible } from '../records/records.js';
import { isTeamType } from './team-file.js';
import { linkStates } from './team-set.js';

/**
 * `agentctx promote ID…`: make local records team records. Stored by chain (team_links names a
 * record of the chain and the head is followed), so a promoted record stays promoted when it is
 * superseded. Handovers (one developer's task state) and the global namespace (the developer's
 * own preferences) are refused.
 */

interface Promoted {
  id: string;
  head_id: string;
  key: string;
  title: string;
  /** Already team context before (a decision, convention or profile fact, or promoted). */
  already: boolean;
}

export function promoteRecords(deps: RecordsDeps, ids: readonly string[]): Promoted[] {
  const run = deps.db.transaction(() => {
    const states = linkStates(deps.db, deps.projectId);
    return ids.map((id) => {
      const rec = requireVisible(deps, id);
      if (rec.project_id === GLOBAL_PROJECT) {
        throw new AgentctxError(
          'invalid_input',
          `record ${rec.id} is a global preference (yours across projects); team context holds this project's records`,
          { id },
        );
      }
      if (!isTeamType(rec.type)) {
        throw new AgentctxError(
          'invalid_input',
          `a ${rec.type} is one developer's state and cannot be promoted`,
          {
            id,
          },
        );
      }
      const head = currentHead(deps.db, rec.id)!;
      if (head.superseded_at) {
        throw new AgentctxError('already_superseded', `record ${rec.id} was closed without a successor`, {
          id,
        });
      }
      const state = states.find((s) => s.head?.id === head.id);
      const auto =
        ['decision', 'convention', 'profile'].includes(head.type) && head.confidence !== 'inferred';
      const key = state?.link.key ?? supersessionChain(deps.db, head.id)[0]?.id ?? head.id;
      const already = auto || Boolean(state && (state.link.promoted || state.link.synced_sha));
      upsertTeamLink(deps.db, {
        project_id: deps.projectId,
        key,
        record_id: head.id,
        synced_sha: state?.link.synced_sha ?? '',
        promoted: true,
        shown_valid_from: state?.link.shown_valid_from ?? null,
      });
      return { id: rec.id, head_id: head.id, key, title: head.title, already };
    });
  });
  return run.immediate();
}
