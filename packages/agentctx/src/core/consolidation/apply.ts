import type { IdGen } from '../../shared/clock.js';
import {
  countCandidateRows,
  pruneMergeCandidates,
  upsertMergeCandidate,
} from '../../storage/consolidation-repo.js';
import type { Db } from '../../storage/open.js';
import type { MergePlan } from './duplicates.js';
import { candidateOrder, type NearPair } from './plan.js';

/**
 * The writing half of a consolidation run: each function is one short IMMEDIATE transaction,
 * so a run killed between two of them leaves a consistent store that the next run's plan
 * starts from.
 */

/** New scores for one batch of records. */
export function applyScores(db: Db, changes: readonly { id: string; score: number }[]): void {
  const update = db.prepare('UPDATE records SET score = ? WHERE id = ?');
  db.transaction(() => {
    for (const c of changes) update.run(c.score, c.id);
  }).immediate();
}

/** Supersede the newer copies into the keeper and fold their sightings into it: one transaction. */
export function applyMerge(db: Db, newId: IdGen, p: MergePlan, nowIso: string): void {
  db.transaction(() => {
    const mark = db.prepare(
      'UPDATE records SET superseded_at = ?, superseded_by = ? WHERE id = ? AND superseded_at IS NULL',
    );
    let done = 0;
    for (const id of p.copies) {
      if (mark.run(nowIso, p.keeper, id).changes === 1) {
        done++;
        db.prepare("INSERT INTO edges (id, from_id, to_id, rel_type) VALUES (?, ?, ?, 'supersedes')").run(
          newId(),
          p.keeper,
          id,
        );
      }
    }
    if (done === p.copies.length) {
      db.prepare(
        `UPDATE records SET pinned = ?, confidence = ?, reinforce_count = ?, access_count = ?, last_accessed = ?
         WHERE id = ? AND superseded_at IS NULL`,
      ).run(p.pinned, p.confidence, p.reinforce_count, p.access_count, p.last_accessed, p.keeper);
    }
  }).immediate();
}

/**
 * One batch of the near-duplicate scan: its pairs as merge candidates (an existing candidate
 * keeps its similarity unless this one is higher) and the watermark, committed together.
 */
export function saveNearBatch(
  db: Db,
  projectId: string,
  found: readonly NearPair[],
  watermark: string,
  nowIso: string,
): void {
  db.transaction(() => {
    for (const f of found) {
      const [x, y] = candidateOrder(f);
      const existing = db
        .prepare('SELECT similarity FROM merge_candidates WHERE record_a = ? AND record_b = ?')
        .get(x.id, y.id) as { similarity: number } | undefined;
      if (existing && existing.similarity >= f.sim) continue;
      upsertMergeCandidate(db, {
        project_id: f.a.project_id,
        type: f.a.type,
        record_a: x.id,
        record_b: y.id,
        similarity: f.sim,
        detected_at: nowIso,
      });
    }
    db.prepare(
      'UPDATE consolidation_runs SET summary = json_set(COALESCE(summary, ?), ?, ?) WHERE project_id = ?',
    ).run('{}', '$.state.near_dup_after', watermark, projectId);
  }).immediate();
}

/**
 * Drop the merge candidates whose records are no longer both current, and note how many rows
 * the namespaces hold now (`state.candidate_rows`, committed together): between two runs rows
 * are only added, so fewer at the next run means they were lost and the scans start over.
 */
export function pruneCandidates(db: Db, projectId: string, namespaces: readonly string[]): number {
  return db
    .transaction(() => {
      pruneMergeCandidates(db, namespaces);
      const rows = countCandidateRows(db, namespaces);
      db.prepare(
        'UPDATE consolidation_runs SET summary = json_set(COALESCE(summary, ?), ?, ?) WHERE project_id = ?',
      ).run('{}', '$.state.candidate_rows', rows, projectId);
      return rows;
    })
    .immediate();
}

/** Every drift score of the project back to 0, then the planned ones. */
export function applyDriftScores(
  db: Db,
  projectId: string,
  scores: readonly { id: string; score: number }[],
): void {
  db.transaction(() => {
    db.prepare(
      'UPDATE records SET claudemd_drift_score = 0 WHERE project_id = ? AND claudemd_drift_score != 0',
    ).run(projectId);
    const set = db.prepare('UPDATE records SET claudemd_drift_score = ? WHERE id = ?');
    for (const s of scores) set.run(s.score, s.id);
  }).immediate();
}
