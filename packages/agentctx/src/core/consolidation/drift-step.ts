import { createHash } from 'node:crypto';
import { driftScoresDigest, recordChangeMark } from '../../database/change-marks.js';
import type { Db } from '../../database/open.js';
import { VERSION } from '../../version.js';
import { type MemoryFile, readMemoryFiles } from '../drift/claudemd-files.js';
import { DRIFT_RULES, historySince, scanDrift } from '../drift/scan.js';
import { applyDriftScores, saveDriftMemo } from './apply.js';
import { type DriftMemo, type DriftScorePlan, planDriftScores, type RunState } from './plan.js';
import type { SliceOptions } from './slices.js';

/**
 * The CLAUDE.md drift step, reusing the last result when nothing it reads has changed (issue
 * 20). The scan reads the memory files, the project's records and `now` (through the 90-day
 * history window, scan.ts). After a full scan is written, the run remembers a fingerprint of the
 * first two — the files' paths and texts and the record-change counter (migration 14), which
 * every insert, delete and update of a record's stored fields moves — with the window the scan
 * used and the counts. A later run whose fingerprint is the same and whose window still holds
 * every superseded record that contradicted a passage (its start has not passed the oldest of
 * them, nor gone back: scan.ts `window`) would plan the scores already stored: it keeps them and
 * the counts, and writes nothing — while those scores are still stored (a digest of them is
 * remembered too: drift scores are derived, and clearing them must not be mistaken for a result).
 */

interface DriftStepDeps {
  db: Db;
  project: { id: string; root: string };
  now: Date;
  /** The run's state: the memo the last run left (`drift`), replaced after a full scan. */
  state: RunState;
  /** Ignore the memo (`consolidate --rebuild`). */
  full?: boolean;
  afterSlice?: (done: number) => void;
  slice?: SliceOptions;
}

interface DriftStepResult {
  counts: DriftScorePlan['counts'];
  /** True when the last result was reused; false when the scan ran. */
  reused: boolean;
}

/** Remember what a full scan read and found (or forget it), in the state and in the store. */
function remember(deps: DriftStepDeps, memo: DriftMemo | undefined): void {
  if (memo) deps.state.drift = memo;
  else delete deps.state.drift;
  saveDriftMemo(deps.db, deps.project.id, memo);
}

function driftFingerprint(files: readonly MemoryFile[], mark: string): string {
  const h = createHash('sha256').update(`${VERSION}\u0000${DRIFT_RULES}\u0000${mark}`);
  for (const f of files) h.update(`\u0000${f.rel}\u0000${f.text.length}\u0000${f.text}`);
  return h.digest('base64url');
}

/** Whether `memo` still holds: same fingerprint, and the window has lost no record that mattered. */
function memoHolds(memo: DriftMemo | undefined, fingerprint: string, since: string): boolean {
  if (!memo || memo.fingerprint !== fingerprint) return false;
  if (since < memo.since) return false; // the clock went back: older records may be in the window
  return memo.oldest === null || memo.oldest >= since;
}

export function runDriftStep(deps: DriftStepDeps): DriftStepResult {
  const { db, project } = deps;
  const files = readMemoryFiles(project.root);
  if (files.length === 0) {
    // without a CLAUDE.md the plan is empty whatever the scan finds (plan.ts): skip the scan,
    // which assesses every current record of the project
    applyDriftScores(db, project.id, [], deps.afterSlice, deps.slice);
    if (deps.state.drift) remember(deps, undefined);
    return { counts: { missing: 0, contradicted: 0 }, reused: false };
  }
  // read before the scan: a record written during it moves the counter past what is remembered
  const mark = recordChangeMark(db);
  const fingerprint = mark === null ? null : driftFingerprint(files, mark);
  const memo = deps.state.drift;
  if (
    !deps.full &&
    fingerprint !== null &&
    memo &&
    memoHolds(memo, fingerprint, historySince(deps.now)) &&
    memo.scores === driftScoresDigest(db, project.id)
  ) {
    return { counts: { missing: memo.missing, contradicted: memo.contradicted }, reused: true };
  }
  const scan = scanDrift(db, project, deps.now);
  const plan = planDriftScores(scan);
  applyDriftScores(db, project.id, plan.scores, deps.afterSlice, deps.slice);
  // the files the scan read may differ from those fingerprinted (written meanwhile): then the
  // memo cannot hold next time, and that run scans again
  const same = scan.files.length === files.length && files.every((f) => scan.texts.get(f.rel) === f.text);
  const scores = driftScoresDigest(db, project.id);
  remember(
    deps,
    same && fingerprint !== null ? { fingerprint, ...scan.window, ...plan.counts, scores } : undefined,
  );
  return { counts: plan.counts, reused: false };
}
