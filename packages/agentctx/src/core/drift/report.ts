import type { Db } from '../../database/open.js';
import { planClaudeMdEdits } from './claudemd-edits.js';
import type { ContradictionFinding, DriftAssessment } from './coverage.js';
import type { DriftEntry, DriftOptions, DriftReport } from './drift-types.js';
import { oneLine } from './record-text.js';
import { scanDrift } from './scan.js';
import { renderDiff } from './unified-diff.js';

const DEFAULT_LIMIT = 20;
const MAX_LIMIT = 100;

function missingEntry(a: DriftAssessment): DriftEntry {
  return {
    record_id: a.record.id,
    type: a.record.type,
    title: a.record.title,
    reason:
      a.coverage === 0
        ? 'nothing in CLAUDE.md mentions it'
        : `closest CLAUDE.md text covers ${Math.round(a.coverage * 100)}% of it`,
    score: a.score,
  };
}

function contradictedEntry(c: ContradictionFinding): DriftEntry {
  return {
    record_id: c.superseded.id,
    type: c.superseded.type,
    title: c.superseded.title,
    reason: `CLAUDE.md still says what was superseded on ${c.superseded.superseded_at?.slice(0, 10)}`,
    file: c.passage.file,
    line: c.passage.line,
    excerpt: oneLine(c.passage.text).slice(0, 200),
    current_id: c.head.id,
    current_title: c.head.title,
  };
}

/**
 * CONTRACTS.md §ctx-sync-claudemd: the bounded drift report. `limit` (default 20, at most 100)
 * applies to each list; `proposed_diff` covers the entries of this page. Read-only.
 */
export function driftReport(db: Db, project: { id: string; root: string }, opts: DriftOptions): DriftReport {
  const scan = scanDrift(db, project, opts.now);
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(opts.limit ?? DEFAULT_LIMIT)));
  const offset = Math.max(0, Math.floor(opts.offset ?? 0));
  const missing = scan.missing.slice(offset, offset + limit);
  const contradicted = scan.contradicted.slice(offset, offset + limit);
  const plan = planClaudeMdEdits(
    scan.texts,
    missing.map((m) => m.record),
    contradicted,
  );
  return {
    missing: missing.map(missingEntry),
    contradicted: contradicted.map(contradictedEntry),
    proposed_diff: renderDiff(scan.texts, plan),
    total: { missing: scan.missing.length, contradicted: scan.contradicted.length },
    truncated: offset + limit < Math.max(scan.missing.length, scan.contradicted.length),
    files: scan.files,
  };
}
