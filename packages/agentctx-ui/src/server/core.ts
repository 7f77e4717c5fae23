/**
 * The agentctx core this dashboard runs on: the same services as the CLI and the MCP server,
 * imported from the sibling workspace's sources and bundled into dist/server.js by esbuild.
 * Nothing here re-implements search, supersession or drift.
 */
export { type App, type AppOptions, createApp } from '../../../agentctx/src/app/context.js';
export { foldJournals } from '../../../agentctx/src/app/journal.js';
export type { ProjectRef } from '../../../agentctx/src/app/project.js';
export { runTeamImport } from '../../../agentctx/src/app/team-import-run.js';
export type { DriftReport } from '../../../agentctx/src/core/drift/drift-types.js';
export { driftReport } from '../../../agentctx/src/core/drift/report.js';
export { assembleProjectProfile } from '../../../agentctx/src/core/profile/project-profile.js';
export {
  createRecord,
  namespacesOf,
  type RecordsDeps,
  reinforceRecord,
  requireVisible,
  setPinned,
  supersedeRecord,
} from '../../../agentctx/src/core/records/records.js';
export { resetNamespace } from '../../../agentctx/src/core/records/reset.js';
export type { RedactionReport } from '../../../agentctx/src/core/redaction/gate.js';
export { search } from '../../../agentctx/src/core/retrieval/search.js';
export { actOnItem, findItem } from '../../../agentctx/src/core/review/actions.js';
export { type ReviewAction, reviewQueue } from '../../../agentctx/src/core/review/queue.js';
export { readTeamFile, teamFilePath } from '../../../agentctx/src/core/team/team-io.js';
export { parseTeamFile } from '../../../agentctx/src/core/team/team-parse.js';
export type { Clock, IdGen } from '../../../agentctx/src/shared/clock.js';
export { AgentctxError, errorMessage } from '../../../agentctx/src/shared/errors.js';
export { staleLabel } from '../../../agentctx/src/shared/stale-label.js';
export {
  CONFIDENCES,
  type Confidence,
  type ContextRecord,
  GLOBAL_PROJECT,
  isConfidence,
  isRecordType,
  RECORD_TYPES,
  type RecordType,
} from '../../../agentctx/src/shared/types.js';
export { nodeValue } from '../../../agentctx/src/storage/graph-repo.js';
export type { Db } from '../../../agentctx/src/storage/open.js';
export { listRecords, supersessionChain } from '../../../agentctx/src/storage/records-repo.js';
export { listSessions, sessionTotals } from '../../../agentctx/src/storage/sessions-repo.js';
export { staleFilesOf } from '../../../agentctx/src/storage/staleness-repo.js';
export { projectTaxShare, sessionTaxShare } from '../../../agentctx/src/storage/usage-repo.js';
export { VERSION } from '../../../agentctx/src/version.js';
