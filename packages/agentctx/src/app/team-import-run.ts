import type { RedactionReport } from '../core/redaction/gate.js';
import { fileSha } from '../core/team/team-file.js';
import { type ImportReport, importTeamFile } from '../core/team/team-import.js';
import { stampTeamSync } from '../core/team/team-io.js';
import type { ParsedFile } from '../core/team/team-parse.js';
import type { App } from './context.js';
import { refreshDigest } from './digest-refresh.js';

/**
 * Take in `.agentctx/context.md` (or another file): the import, the sync stamp when it is the
 * repository's own file, and the digest refresh when anything was written. `agentctx team import`
 * and the review queue's "confirm" on a team-file change both run this.
 */
export async function runTeamImport(
  a: App,
  input: {
    parsed: ParsedFile;
    text: string;
    inRepo: boolean;
    closeRemoved: boolean;
    onRedacted?: (r: RedactionReport) => void;
  },
): Promise<{ report: ImportReport; digest_refreshed: boolean }> {
  const deps = { ...a.records(), ...(input.onRedacted ? { onRedacted: input.onRedacted } : {}) };
  const report = importTeamFile(deps, input.parsed, { closeRemoved: input.closeRemoved, text: input.text });
  if (input.inRepo) stampTeamSync(a.paths.digests, a.project.id, fileSha(input.text), a.project.root);
  const wrote = report.created.length + report.updated.length + report.removed.length > 0;
  // the next session's SessionStart digest carries what came in
  const digest_refreshed = wrote ? await refreshDigest(a, 10_000) : false;
  return { report, digest_refreshed };
}
