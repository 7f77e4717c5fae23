import { join } from 'node:path';
import { redactorFingerprint } from '../core/redaction/fingerprint.js';
import { emptyReport, type RedactionReport } from '../core/redaction/gate.js';
import { type StoreScrubReport, scrubStore } from '../core/redaction/scrub.js';
import {
  type FileScrubReport,
  type LogScrubState,
  scrubLogs,
  scrubTextFile,
} from '../core/redaction/scrub-files.js';
import {
  dropSqliteVecRows,
  hasSqliteVecTable,
  readScrubState,
  writeScrubState,
} from '../database/scrub-repo.js';
import { loadSqliteVec } from '../database/vectors/open.js';
import type { App } from './context.js';
import { tryLock } from './lock.js';
import { scrubDigests } from './scrub-digests.js';
import { semanticPackagesDir, sqliteVecEntry } from './semantic-runtime.js';

/**
 * The secret scrub over everything agentctx keeps (core/redaction/scrub.ts, scrub-files.ts):
 * the store, then the digests that show a rewritten record or hold a secret (this project's is
 * composed again; another project's is removed or redacted, scrubDigests), the
 * exported profile, and the logs. `agentctx consolidate` runs it first, time-boxed; `agentctx
 * scrub` runs it whole. One scrub at a time per home (lock `scrub`).
 */

/** What a scrub did, by place: kinds and counts, never values (`secrets` is the store's rows). */
export interface ScrubSummary extends Omit<StoreScrubReport, 'changed_ids'> {
  digests: { rewritten: number; removed: number; secrets: RedactionReport };
  profile: { rewritten: boolean; secrets: RedactionReport };
  logs: FileScrubReport;
  ms: number;
}

export type ScrubOutcome = ScrubSummary | { skipped: 'locked' };

const LOGS_KEY = 'logs';

export async function runScrub(
  a: App,
  opts: { budgetMs?: number; compactAlways?: boolean } = {},
): Promise<ScrubOutcome> {
  const t0 = performance.now();
  const lock = tryLock(a.paths.locks, 'scrub', 30 * 60_000);
  if (!lock) return { skipped: 'locked' };
  try {
    const db = a.db;
    const extra = a.config.redact?.extraPatterns;
    const fingerprint = redactorFingerprint(extra);
    const store = scrubStore({
      db,
      redact: a.redact,
      fingerprint,
      ...(opts.budgetMs !== undefined ? { budgetMs: opts.budgetMs } : {}),
      ...(opts.compactAlways ? { compactAlways: true } : {}),
    });
    // a sqlite-vec row can only be dropped with the extension loaded: only when there is one to drop
    if (
      store.changed_ids.length > 0 &&
      hasSqliteVecTable(db) &&
      (await loadSqliteVec(db, sqliteVecEntry(semanticPackagesDir(a.paths)))) === null
    )
      store.embeddings_dropped += dropSqliteVecRows(db, store.changed_ids);
    const digests = scrubDigests(a, new Set(store.changed_ids));
    const profile = scrubTextFile(join(a.paths.profile, 'profile.md'), a.redact, 'profile');
    const logState = readScrubState<LogScrubState>(db, LOGS_KEY);
    const logs = scrubLogs(a.paths.logs, a.redact, fingerprint, logState);
    if (JSON.stringify(logs.state) !== JSON.stringify(logState)) writeScrubState(db, LOGS_KEY, logs.state);
    const { changed_ids: _ids, ...rest } = store;
    return {
      ...rest,
      digests,
      profile: { rewritten: (profile?.count ?? 0) > 0, secrets: profile ?? emptyReport() },
      logs: logs.report,
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    lock.release();
  }
}
