import {
  countCandidateRows,
  pruneMergeCandidates,
  upsertMergeCandidate,
} from '../../database/consolidation-repo.js';
import type { Db } from '../../database/open.js';
import type { IdGen } from '../../shared/clock.js';
import type { MergePlan } from './duplicates.js';
import { candidateOrder, type DriftMemo, type NearPair } from './plan.js';
import { type SliceOptions, writeInSlices } from './slices.js';

/**
 * The writing half of a consolidation run: each function is one short IMMEDIATE transaction,
 * so a run killed between two of them leaves a consistent store that the next run's plan
 * starts from.
 */

/** New scores, in short slices (slices.ts); `afterSlice` gets the count written so far. */
export function applyScores(
  db: Db,
  changes: readonly { id: string; score: number }[],
  afterSlice: (done: number) => void = () => {},
  slice?: SliceOptions,
): void {
  const update = db.prepare('UPDATE records SET score = ? WHERE id = ?');
  writeInSlices(db, changes, (c) => update.run(c.score, c.id), afterSlice, slice);
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

/**
 * The project's drift scores become the planned ones (every other back to 0). The scores stored
 * now are read outside any write transaction, and only the differences are written, in short
 * slices (slices.ts): a rerun with nothing changed writes nothing, and a run killed between two
 * slices leaves scores the next run's plan finishes. Only consolidation writes drift scores, and
 * one consolidation runs at a time. Returns how many records it changed.
 */
export function applyDriftScores(
  db: Db,
  projectId: string,
  scores: readonly { id: string; score: number }[],
  afterSlice: (done: number) => void = () => {},
  slice?: SliceOptions,
): number {
  const target = new Map<string, number>();
  for (const s of scores) target.set(s.id, s.score); // a later plan entry wins, as it did when written in order
  const stored = db
    .prepare(
      'SELECT id, claudemd_drift_score AS score FROM records WHERE project_id = ? AND claudemd_drift_score != 0',
    )
    .all(projectId) as { id: string; score: number }[];
  const changes: { id: string; score: number }[] = [];
  const had = new Map(stored.map((r) => [r.id, r.score]));
  for (const r of stored) if (!target.has(r.id)) changes.push({ id: r.id, score: 0 });
  for (const [id, score] of target) if ((had.get(id) ?? 0) !== score) changes.push({ id, score });
  const set = db.prepare('UPDATE records SET claudemd_drift_score = ? WHERE id = ?');
  writeInSlices(db, changes, (c) => set.run(c.score, c.id), afterSlice, slice);
  return changes.length;
}

/** Remember (or forget) the drift scan's result for the next run, once its scores are written. */
export function saveDriftMemo(db: Db, projectId: string, memo: DriftMemo | undefined): void {
  if (memo) {
    db.prepare(
      'UPDATE consolidation_runs SET summary = json_set(COALESCE(summary, ?), ?, json(?)) WHERE project_id = ?',
    ).run('{}', '$.state.drift', JSON.stringify(memo), projectId);
  } else {
    db.prepare('UPDATE consolidation_runs SET summary = json_remove(summary, ?) WHERE project_id = ?').run(
      '$.state.drift',
      projectId,
    );
  }
}
