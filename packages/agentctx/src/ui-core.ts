/**
 * What the dashboard (`@agentctxhq/agentctx-ui`) may use of agentctx, declared as the package
 * export `@agentctxhq/agentctx/ui-core` (dist/ui-core.js). The dashboard bundles none of it: it
 * runs on the one copy of the core and its migrations that the installed CLI carries, so the two
 * can never migrate the store differently. Nothing here re-implements search, supersession or
 * drift.
 */
export { type App, type AppOptions, createApp, type Env } from './app/context.js';
export { foldJournals } from './app/journal.js';
export type { ProjectRef } from './app/project.js';
export { runTeamImport } from './app/team-import-run.js';
export type { DriftReport } from './core/drift/drift-types.js';
export { driftReport } from './core/drift/report.js';
export { assembleProjectProfile } from './core/profile/project-profile.js';
export {
  createRecord,
  namespacesOf,
  type RecordsDeps,
  reinforceRecord,
  requireVisible,
  setPinned,
  supersedeRecord,
} from './core/records/records.js';
export { resetNamespace } from './core/records/reset.js';
export type { RedactionReport } from './core/redaction/gate.js';
export { search } from './core/retrieval/search.js';
export { actOnItem, findItem } from './core/review/actions.js';
export { type ReviewAction, type ReviewItem, reviewQueue } from './core/review/queue.js';
export { readTeamFile, teamFilePath } from './core/team/team-io.js';
export { parseTeamFile } from './core/team/team-parse.js';
export { nodeValue } from './database/graph-repo.js';
export type { Db } from './database/open.js';
export { listRecords, supersessionChain } from './database/records-repo.js';
export { listSessions, sessionTotals } from './database/sessions-repo.js';
export { staleFilesOf } from './database/staleness-repo.js';
export { projectTaxShare, sessionTaxShare } from './database/usage-repo.js';
export type { Clock, IdGen } from './shared/clock.js';
export { AgentctxError, errorMessage } from './shared/errors.js';
export { staleLabel } from './shared/stale-label.js';
export {
  CONFIDENCES,
  type Confidence,
  type ContextRecord,
  GLOBAL_PROJECT,
  isConfidence,
  isRecordType,
  RECORD_TYPES,
  type RecordType,
} from './shared/types.js';
export { VERSION } from './version.js';
