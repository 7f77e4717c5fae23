import type { Db } from './open.js';

/**
 * A pair of current records of one type that look like the same fact (migration 2): derived,
 * found again by a rebuild. The developer's dismissals are stored apart (merge_dismissals,
 * migration 6) and always win over what the scans find.
 */
interface MergeCandidate {
  project_id: string;
  type: string;
  /** The older record of the pair. */
  record_a: string;
  record_b: string;
  similarity: number;
  detected_at: string;
  status: string;
}

/** SQL true when the pair (a, b), in either order, was dismissed by the developer. */
function dismissedSql(a: string, b: string): string {
  return `EXISTS (SELECT 1 FROM merge_dismissals d
    WHERE (d.id_a = ${a} AND d.id_b = ${b}) OR (d.id_a = ${b} AND d.id_b = ${a}))`;
}

/**
 * Save a pair the scans found. A pair the developer dismissed is never written (it stays
 * dismissed whatever the scans find); returns whether a row was written.
 */
export function upsertMergeCandidate(db: Db, c: Omit<MergeCandidate, 'status'>): boolean {
  return (
    db
      .prepare(
        `INSERT INTO merge_candidates (project_id, type, record_a, record_b, similarity, detected_at)
         SELECT @project_id, @type, @record_a, @record_b, @similarity, @detected_at
         WHERE NOT ${dismissedSql('@record_a', '@record_b')}
         ON CONFLICT(record_a, record_b) DO UPDATE SET similarity = excluded.similarity`,
      )
      .run(c).changes > 0
  );
}

/** Drop candidates of these namespaces whose records are no longer both current. */
export function pruneMergeCandidates(db: Db, namespaces: readonly string[]): number {
  const marks = namespaces.map(() => '?').join(',');
  return db
    .prepare(
      `DELETE FROM merge_candidates WHERE project_id IN (${marks}) AND (
         NOT EXISTS (SELECT 1 FROM records r WHERE r.id = record_a AND r.superseded_at IS NULL) OR
         NOT EXISTS (SELECT 1 FROM records r WHERE r.id = record_b AND r.superseded_at IS NULL))`,
    )
    .run(...namespaces).changes;
}

/** Every candidate row of these namespaces, whatever its status (what a rebuild starts from). */
export function countCandidateRows(db: Db, namespaces: readonly string[]): number {
  const marks = namespaces.map(() => '?').join(',');
  return (
    db
      .prepare(`SELECT COUNT(*) AS n FROM merge_candidates WHERE project_id IN (${marks})`)
      .get(...namespaces) as { n: number }
  ).n;
}

/** Forget the derived candidates of these namespaces (dismissals are kept: they are not derived). */
export function clearMergeCandidates(db: Db, namespaces: readonly string[]): number {
  const marks = namespaces.map(() => '?').join(',');
  return db.prepare(`DELETE FROM merge_candidates WHERE project_id IN (${marks})`).run(...namespaces).changes;
}

/** The developer's answer "these two stay apart" (ground truth; `a` is the older record). */
export function addMergeDismissal(
  db: Db,
  d: { project_id: string; id_a: string; id_b: string; dismissed_at: string },
): void {
  db.prepare(
    `INSERT INTO merge_dismissals (project_id, id_a, id_b, dismissed_at)
     SELECT @project_id, @id_a, @id_b, @dismissed_at WHERE NOT ${dismissedSql('@id_a', '@id_b')}`,
  ).run(d);
  db.prepare(
    `UPDATE merge_candidates SET status = 'dismissed'
     WHERE (record_a = @id_a AND record_b = @id_b) OR (record_a = @id_b AND record_b = @id_a)`,
  ).run(d);
}

export function listMergeCandidates(
  db: Db,
  namespaces: readonly string[],
  limit = 20,
): (MergeCandidate & { title_a: string; title_b: string })[] {
  const marks = namespaces.map(() => '?').join(',');
  return db
    .prepare(
      `SELECT m.*, a.title AS title_a, b.title AS title_b FROM merge_candidates m
       JOIN records a ON a.id = m.record_a JOIN records b ON b.id = m.record_b
       WHERE m.project_id IN (${marks}) AND m.status = 'open'
         AND a.superseded_at IS NULL AND b.superseded_at IS NULL
         AND NOT ${dismissedSql('m.record_a', 'm.record_b')}
       ORDER BY m.similarity DESC, m.record_a, m.record_b LIMIT ?`,
    )
    .all(...namespaces, Math.max(1, Math.floor(limit))) as (MergeCandidate & {
    title_a: string;
    title_b: string;
  })[];
}

export function countMergeCandidates(db: Db, namespaces: readonly string[]): number {
  const marks = namespaces.map(() => '?').join(',');
  return (
    db
      .prepare(
        `SELECT COUNT(*) AS n FROM merge_candidates m
         JOIN records a ON a.id = m.record_a JOIN records b ON b.id = m.record_b
         WHERE m.project_id IN (${marks}) AND m.status = 'open'
           AND a.superseded_at IS NULL AND b.superseded_at IS NULL
           AND NOT ${dismissedSql('m.record_a', 'm.record_b')}`,
      )
      .get(...namespaces) as { n: number }
  ).n;
}

/** The bookkeeping row of a project's last consolidation. `summary` is JSON. */
interface ConsolidationRun {
  project_id: string;
  started_at: string;
  finished_at: string | null;
  duration_ms: number | null;
  summary: string | null;
}

export function getRun(db: Db, projectId: string): ConsolidationRun | undefined {
  return db.prepare('SELECT * FROM consolidation_runs WHERE project_id = ?').get(projectId) as
    | ConsolidationRun
    | undefined;
}

export function saveRun(db: Db, run: ConsolidationRun): void {
  db.prepare(
    `INSERT INTO consolidation_runs (project_id, started_at, finished_at, duration_ms, summary)
     VALUES (@project_id, @started_at, @finished_at, @duration_ms, @summary)
     ON CONFLICT(project_id) DO UPDATE SET started_at = excluded.started_at, finished_at = excluded.finished_at,
       duration_ms = excluded.duration_ms, summary = excluded.summary`,
  ).run(run);
}
