import { addMergeDismissal } from '../../database/consolidation-repo.js';
import type { Db } from '../../database/open.js';
import type { Clock, IdGen } from '../../shared/clock.js';
import { AgentctxError } from '../../shared/errors.js';
import type { Confidence, ContextRecord } from '../../shared/types.js';
import { resolveRecordId } from '../records/record-id.js';
import { namespacesOf } from '../records/records.js';

/**
 * A developer's answer to a merge candidate. `mergePair` supersedes the newer record into the
 * older one (which keeps its id and text and absorbs the newer one's sightings, pinning and
 * trust), in one transaction; `dismissPair` stores the developer's answer so the scans never
 * propose the pair again.
 */

interface MergeDeps {
  db: Db;
  clock: Clock;
  newId: IdGen;
  projectId: string;
}

const TRUST: Record<Confidence, number> = { inferred: 0, reinforced: 1, explicit: 2 };

function pair(deps: MergeDeps, idA: string, idB: string): [ContextRecord, ContextRecord] {
  if (idA === idB) throw new AgentctxError('invalid_input', 'merge needs two different record ids');
  const visible = namespacesOf(deps.projectId);
  // whole ids or unique prefixes (record-id.ts)
  const a = resolveRecordId(deps.db, idA, visible);
  const b = resolveRecordId(deps.db, idB, visible);
  if (a.id === b.id) throw new AgentctxError('invalid_input', 'merge needs two different record ids');
  return a.recorded_at < b.recorded_at || (a.recorded_at === b.recorded_at && a.id < b.id) ? [a, b] : [b, a];
}

interface MergeOutcome {
  keeper: string;
  superseded: string;
}

export function mergePair(deps: MergeDeps, idA: string, idB: string): MergeOutcome {
  const { db } = deps;
  return db
    .transaction((): MergeOutcome => {
      const [keep, copy] = pair(deps, idA, idB);
      for (const r of [keep, copy]) {
        if (r.superseded_at)
          throw new AgentctxError('already_superseded', `record ${r.id} is no longer current`, { id: r.id });
      }
      if (keep.project_id !== copy.project_id || keep.type !== copy.type)
        throw new AgentctxError(
          'invalid_input',
          `only records of the same type and scope merge (${keep.type} vs ${copy.type})`,
        );
      const now = deps.clock().toISOString();
      db.prepare('UPDATE records SET superseded_at = ?, superseded_by = ? WHERE id = ?').run(
        now,
        keep.id,
        copy.id,
      );
      db.prepare("INSERT INTO edges (id, from_id, to_id, rel_type) VALUES (?, ?, ?, 'supersedes')").run(
        deps.newId(),
        keep.id,
        copy.id,
      );
      const confidence = TRUST[copy.confidence] > TRUST[keep.confidence] ? copy.confidence : keep.confidence;
      const accessed = [keep.last_accessed, copy.last_accessed].filter((x): x is string => !!x).sort();
      db.prepare(
        `UPDATE records SET pinned = ?, confidence = ?, reinforce_count = ?, access_count = ?, last_accessed = ?
         WHERE id = ?`,
      ).run(
        keep.pinned || copy.pinned ? 1 : 0,
        // the developer confirmed these are one fact: an inferred keeper counts as reinforced
        confidence === 'inferred' ? 'reinforced' : confidence,
        keep.reinforce_count + 1 + copy.reinforce_count,
        (keep.access_count ?? 0) + (copy.access_count ?? 0),
        accessed.at(-1) ?? null,
        keep.id,
      );
      db.prepare("UPDATE merge_candidates SET status = 'merged' WHERE record_a = ? AND record_b = ?").run(
        keep.id,
        copy.id,
      );
      return { keeper: keep.id, superseded: copy.id };
    })
    .immediate();
}

/**
 * The developer's "these two stay apart": stored in merge_dismissals (ground truth, not derived),
 * so the pair is never proposed again, even after the candidate list is rebuilt.
 */
export function dismissPair(
  deps: MergeDeps,
  idA: string,
  idB: string,
): { record_a: string; record_b: string } {
  const { db } = deps;
  return db
    .transaction(() => {
      const [a, b] = pair(deps, idA, idB);
      addMergeDismissal(db, {
        project_id: a.project_id,
        id_a: a.id,
        id_b: b.id,
        dismissed_at: deps.clock().toISOString(),
      });
      return { record_a: a.id, record_b: b.id };
    })
    .immediate();
}
