import type { Db } from './open.js';

/**
 * Move everything stored under one project id to another (the worktrees of a repository
 * without a remote used to be projects of their own; they now share one id: app/project.ts).
 * One write transaction; nothing is deleted that is not derived:
 * - records, sessions and code-graph nodes change their project id;
 * - where both ids hold the one record a project may have current (the handover, a profile
 *   key), the older is superseded by the newer, as a second write of it would have done;
 * - merge dismissals and team links keep the target's row where both have one (the same pair
 *   or key), the other's otherwise; team_sync keeps the target's;
 * - derived rows are dropped and rebuilt by the next consolidation: the source's merge
 *   candidates and both ids' consolidation watermarks (so the moved records are scanned).
 */

interface MergeCounts {
  records: number;
  sessions: number;
  superseded: number;
}

/** Ids among `ids` that still hold records or sessions: what a merge would move. */
export function idsWithData(db: Db, ids: readonly string[]): string[] {
  const probe = db.prepare(
    `SELECT EXISTS(SELECT 1 FROM records WHERE project_id = @id)
         OR EXISTS(SELECT 1 FROM sessions WHERE project_id = @id) AS has`,
  );
  return ids.filter((id) => (probe.get({ id }) as { has: number }).has === 1);
}

/** Supersede, in `from`, the current keyed records `to` also holds a current one of; returns how many. */
function settleKeyed(db: Db, from: string, to: string, nowIso: string): number {
  const pairs = db
    .prepare(
      `SELECT a.id AS a_id, a.valid_from AS a_from, b.id AS b_id, b.valid_from AS b_from
       FROM records a JOIN records b
         ON b.project_id = @to AND b.type = a.type AND b.superseded_at IS NULL
        AND (a.type = 'handover' OR b.title = a.title)
       WHERE a.project_id = @from AND a.superseded_at IS NULL AND a.type IN ('handover', 'profile')`,
    )
    .all({ from, to }) as { a_id: string; a_from: string; b_id: string; b_from: string }[];
  const close = db.prepare(
    'UPDATE records SET superseded_at = ?, superseded_by = ? WHERE id = ? AND superseded_at IS NULL',
  );
  for (const p of pairs) {
    // the later statement stays current (ties: the larger id, as ULIDs sort by creation)
    const aNewer = p.a_from > p.b_from || (p.a_from === p.b_from && p.a_id > p.b_id);
    if (aNewer) close.run(nowIso, p.a_id, p.b_id);
    else close.run(nowIso, p.b_id, p.a_id);
  }
  return pairs.length;
}

export function mergeProjectInto(db: Db, from: string, to: string, now: Date): MergeCounts {
  if (from === to) return { records: 0, sessions: 0, superseded: 0 };
  const run = db.transaction((): MergeCounts => {
    const superseded = settleKeyed(db, from, to, now.toISOString());
    const records = db
      .prepare('UPDATE records SET project_id = ? WHERE project_id = ?')
      .run(to, from).changes;
    const sessions = db
      .prepare('UPDATE sessions SET project_id = ? WHERE project_id = ?')
      .run(to, from).changes;
    db.prepare('UPDATE nodes SET project_id = ? WHERE project_id = ?').run(to, from);
    for (const table of ['merge_dismissals', 'team_links', 'team_sync']) {
      db.prepare(`UPDATE OR IGNORE ${table} SET project_id = ? WHERE project_id = ?`).run(to, from);
      db.prepare(`DELETE FROM ${table} WHERE project_id = ?`).run(from);
    }
    db.prepare('DELETE FROM merge_candidates WHERE project_id = ?').run(from);
    db.prepare('DELETE FROM consolidation_runs WHERE project_id IN (?, ?)').run(from, to);
    return { records, sessions, superseded };
  });
  return run.immediate();
}
