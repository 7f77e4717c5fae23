import {
  type AnchorReader,
  type AnchorRow,
  anchorFiles,
  currentAnchors,
  unanchoredLinks,
} from '../../database/file-anchors.js';
import type { Db } from '../../database/open.js';
import { replaceStaleness, type StalenessRow } from '../../database/staleness-repo.js';
import type { GitHistory } from '../../git/git-history.js';
import { changedShare, type Fingerprint } from '../../shared/fingerprint.js';

/**
 * Code-anchored staleness (consolidation step): for every current record linked to files,
 * compare what each file is now with what it was when the record was linked (file_anchors),
 * count the commits that touched it since the anchor commit, estimate how much of it changed,
 * and follow renames git recorded. The plan is a pure function of the anchors, the files' states
 * and the history; the rows replace the project's record_staleness in one transaction.
 */

export interface StalenessSummary {
  /** Links anchored by this run (made before anchors existed, or by an older agentctx). */
  anchored: number;
  checked: number;
  stale_records: number;
  deleted_files: number;
  git: boolean;
}

const MAX_RENAME_HOPS = 10;

function commitsSince(history: GitHistory | null, path: string, before: number | undefined): number | null {
  if (!history || before === undefined) return null;
  return (history.touches.get(path) ?? []).filter((p) => p < before).length;
}

/** Where `path` went after position `before` (newer commits have smaller positions). */
function followRenames(
  history: GitHistory,
  path: string,
  before: number,
): { path: string; at: number } | null {
  let p = path;
  let limit = before;
  let moved: { path: string; at: number } | null = null;
  for (let hop = 0; hop < MAX_RENAME_HOPS; hop++) {
    const next = (history.renames.get(p) ?? []).filter((r) => r.at < limit).sort((a, b) => b.at - a.at)[0];
    if (!next) break;
    moved = { path: next.to, at: next.at };
    p = next.to;
    limit = next.at;
  }
  return moved;
}

function share(anchor: AnchorRow, now: Fingerprint): number | null {
  if (!anchor.sketch || !now.sketch) return null;
  return Math.round(changedShare(anchor.sketch, now.sketch) * 1000) / 1000;
}

export function planStaleness(
  anchors: readonly AnchorRow[],
  stateOf: (path: string) => Fingerprint | null,
  history: GitHistory | null,
): StalenessRow[] {
  const rows: StalenessRow[] = [];
  for (const a of anchors) {
    if (a.content_hash === null) continue; // the file did not exist when linked: nothing to compare
    const now = stateOf(a.path);
    if (now && now.hash === a.content_hash) continue;
    const before = history && a.commit_sha ? history.position.get(a.commit_sha) : undefined;
    if (now) {
      rows.push({
        record_id: a.record_id,
        path: a.path,
        state: 'changed',
        new_path: null,
        commits: commitsSince(history, a.path, before),
        changed_share: share(a, now),
      });
      continue;
    }
    const moved = history ? followRenames(history, a.path, before ?? Number.POSITIVE_INFINITY) : null;
    const there = moved ? stateOf(moved.path) : null;
    if (moved && there) {
      if (there.hash === a.content_hash) continue; // moved, unchanged: still true
      rows.push({
        record_id: a.record_id,
        path: a.path,
        state: 'renamed',
        new_path: moved.path,
        commits: commitsSince(history, moved.path, before),
        changed_share: share(a, there),
      });
      continue;
    }
    rows.push({
      record_id: a.record_id,
      path: a.path,
      state: 'deleted',
      new_path: null,
      commits: commitsSince(history, a.path, before),
      changed_share: null,
    });
  }
  return rows;
}

interface StalenessDeps {
  db: Db;
  projectId: string;
  reader: AnchorReader;
  /** The project's git history (one `git log`), or null outside git. */
  history: GitHistory | null;
  nowIso: string;
}

export function checkStaleness(deps: StalenessDeps): StalenessSummary {
  const { db } = deps;
  const missing = unanchoredLinks(db, deps.projectId);
  let anchored = 0;
  if (missing.length > 0) {
    db.transaction(() => {
      anchored = anchorFiles(db, deps.reader, missing, deps.nowIso);
    }).immediate();
  }
  const anchors = currentAnchors(db, deps.projectId);
  const rows = planStaleness(anchors, (p) => deps.reader.state(p), deps.history);
  replaceStaleness(db, deps.projectId, rows, deps.nowIso);
  return {
    anchored,
    checked: anchors.length,
    stale_records: new Set(rows.map((r) => r.record_id)).size,
    deleted_files: new Set(rows.filter((r) => r.state === 'deleted').map((r) => r.path)).size,
    git: deps.history !== null,
  };
}
