import type { RecordsDeps } from '../../../../src/core/records/records.js';
import { redactSecrets } from '../../../../src/core/redaction/redact.js';
import {
  type ExportResult,
  recordExport,
  renderTeamExport,
  type TeamDeps,
} from '../../../../src/core/team/team-export.js';
import { type ImportReport, importTeamFile } from '../../../../src/core/team/team-import.js';
import { parseTeamFile } from '../../../../src/core/team/team-parse.js';
import type { Db } from '../../../../src/database/open.js';

export function teamDeps(deps: RecordsDeps): TeamDeps {
  return { db: deps.db, projectId: deps.projectId, redact: deps.redact ?? redactSecrets, now: deps.clock };
}

/** Export as `agentctx team export` does (render, then remember what was written). */
export function exportTeam(deps: RecordsDeps): ExportResult {
  const res = renderTeamExport(teamDeps(deps));
  recordExport(teamDeps(deps), res);
  return res;
}

export function importTeam(deps: RecordsDeps, text: string, closeRemoved = false): ImportReport {
  return importTeamFile(deps, parseTeamFile(text), { closeRemoved, text });
}

export function countRecords(db: Db): number {
  return (db.prepare('SELECT count(*) AS n FROM records').get() as { n: number }).n;
}

export function current(
  db: Db,
  projectId: string,
): { id: string; title: string; body: string; type: string }[] {
  return db
    .prepare(
      'SELECT id, title, body, type FROM records WHERE project_id = ? AND superseded_at IS NULL ORDER BY id',
    )
    .all(projectId) as { id: string; title: string; body: string; type: string }[];
}
