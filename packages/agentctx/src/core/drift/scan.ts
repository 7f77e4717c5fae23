import type { Db } from '../../database/open.js';
import { currentHead } from '../../database/records-repo.js';
import { createScratchIndex } from '../../database/scratch-fts.js';
import type { ContextRecord } from '../../shared/types.js';
import { type MemoryFile, passagesOf, readMemoryFiles } from './claudemd-files.js';
import {
  assess,
  type ContradictionFinding,
  contradictionsOf,
  type DriftAssessment,
  type IndexedPassages,
  MATCH_COVERAGE,
} from './coverage.js';
import { lowerOf } from './record-text.js';

/**
 * CLAUDE.md drift (CONTRACTS.md §ctx-sync-claudemd): does the project's CLAUDE.md (with
 * `.claude/CLAUDE.md` and its `@path` imports) still say what the store holds?
 *
 * The memory files are split into passages (list items, paragraphs, headings, code lines) and
 * indexed in a scratch in-memory FTS5 table. Each current explicit or reinforced decision and
 * convention is scored there (coverage.ts), and so is each decision or convention superseded in
 * the last 90 days against its current head. Read-only: nothing is written anywhere.
 */

const HISTORY_DAYS = 90;

export interface DriftScan {
  files: string[];
  /** Every current candidate, flagged or not. */
  assessments: DriftAssessment[];
  missing: DriftAssessment[];
  contradicted: ContradictionFinding[];
  /** The memory files' texts, for the proposed diff. */
  texts: Map<string, string>;
  /**
   * The superseded records compared: those superseded since `since` (`now` − 90 days), newest
   * first. `oldest` is when the oldest of them that contradicts a passage was superseded (null:
   * none does). With no record changed in between, a later scan whose `since` lies in
   * [since, oldest] finds the same: the records it no longer compares are the oldest, compared
   * last, and contradicted nothing, so nothing compared before them or after changes.
   */
  window: { since: string; oldest: string | null };
}

/** Raise when the scan's rules change: a result remembered by an older version is not reused. */
export const DRIFT_RULES = 1;

function candidates(db: Db, projectId: string): ContextRecord[] {
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND superseded_at IS NULL
       AND type IN ('decision', 'convention') AND confidence IN ('explicit', 'reinforced')
       ORDER BY pinned DESC, CASE confidence WHEN 'explicit' THEN 0 ELSE 1 END, recorded_at DESC, id DESC`,
    )
    .all(projectId) as ContextRecord[];
}

/** The start of the history window: records superseded since are compared with their heads. */
export function historySince(now: Date): string {
  return new Date(now.getTime() - HISTORY_DAYS * 86_400_000).toISOString();
}

function recentlySuperseded(db: Db, projectId: string, since: string): ContextRecord[] {
  return db
    .prepare(
      `SELECT * FROM records WHERE project_id = ? AND superseded_at IS NOT NULL AND superseded_at >= ?
       AND superseded_by IS NOT NULL AND type IN ('decision', 'convention')
       ORDER BY superseded_at DESC, id DESC`,
    )
    .all(projectId, since) as ContextRecord[];
}

/** The full scan behind the report and the consolidation step. Read-only. */
export function scanDrift(db: Db, project: { id: string; root: string }, now: Date): DriftScan {
  const files: MemoryFile[] = readMemoryFiles(project.root);
  const passages = files.flatMap(passagesOf);
  // struck-through text (~~like this~~) no longer states anything
  const said = passages.map((p) => p.text.replace(/~~[\s\S]*?~~/g, ' '));
  const index = createScratchIndex(said.map((text, i) => ({ key: i + 1, text })));
  const indexed: IndexedPassages = { index, passages, lower: said.map(lowerOf) };
  try {
    const contradicted: ContradictionFinding[] = [];
    const flagged = new Set<number>();
    const since = historySince(now);
    const history = recentlySuperseded(db, project.id, since);
    for (const old of history) {
      const head = currentHead(db, old.id);
      if (!head || head.id === old.id || head.superseded_at) continue;
      contradicted.push(...contradictionsOf(old, head, indexed, flagged));
    }
    const assessments: DriftAssessment[] = [];
    for (const rec of candidates(db, project.id)) assessments.push(assess(rec, indexed, flagged));
    contradicted.sort((a, b) =>
      a.passage.file === b.passage.file
        ? a.passage.line - b.passage.line
        : a.passage.file < b.passage.file
          ? -1
          : 1,
    );
    return {
      files: files.map((f) => f.rel),
      assessments,
      missing: assessments.filter((a) => a.coverage < MATCH_COVERAGE),
      contradicted,
      texts: new Map(files.map((f) => [f.rel, f.text])),
      window: {
        since,
        oldest: contradicted.reduce<string | null>((m, c) => {
          const at = c.superseded.superseded_at!;
          return m === null || at < m ? at : m;
        }, null),
      },
    };
  } finally {
    index.close();
  }
}
