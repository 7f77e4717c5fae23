/**
 * The secret scrub: records stored before the redaction gate existed (or checked by an older
 * redactor) are redacted in place, history rows included. This is the one exception to
 * "supersede, never overwrite": a secret must not survive as history either. Each scanned table
 * keeps the redactor fingerprint it was checked with and how far (rowid) the check got
 * (database/scrub-repo.ts), so a run only reads rows written since the last one, and a new
 * redactor (an upgrade, a new user pattern) starts a pass over everything, resumed across runs
 * when a time box cuts it. What a rewrite leaves behind goes too: the record's vector (the
 * backfill embeds the new text), its old words in the full-text index and the word-frequency
 * copy, freed pages (zeroed; the file rebuilt after a pass that changed anything) and the WAL.
 */
import { ftsUsable } from '../../database/fts-index.js';
import type { Db } from '../../database/open.js';
import {
  dropRecordVectors,
  optimizeFts,
  readScrubState,
  rebuildTermDf,
  rewriteRow,
  rowsAfter,
  SCRUBBED_COLUMNS,
  setSecureDelete,
  type TextRow,
  truncateWal,
  vacuumStore,
  writeScrubState,
} from '../../database/scrub-repo.js';
import { clearTermDf } from '../../database/term-df.js';
import { emptyReport, mergeReports, type RedactionReport, redactFields } from './gate.js';
import type { Redact } from './redact.js';

interface ScrubDeps {
  db: Db;
  redact: Redact;
  /** The redactor's fingerprint (fingerprint.ts). */
  fingerprint: string;
  /** Time box: past it the scan stops after its batch and the next run resumes. */
  budgetMs?: number;
  elapsed?: () => number;
  batchSize?: number;
  /** Rebuild the file (VACUUM) whenever this run changed a row, not only when a pass completes. */
  compactAlways?: boolean;
}

export interface StoreScrubReport {
  fingerprint: string;
  /** This run started checking every row again (a new redactor or a first run). */
  full_pass: boolean;
  /** Every row is now checked with this redactor (false: the time box cut the pass). */
  complete: boolean;
  /** Rows read this run. */
  scanned: number;
  /** Rows rewritten, and how many of them are history (superseded records). */
  changed: number;
  history_changed: number;
  /** What was taken out: kinds and counts, never values. */
  secrets: RedactionReport;
  embeddings_dropped: number;
  fts_optimized: boolean;
  term_df_rebuilt: boolean;
  vacuumed: boolean;
  /** The WAL was copied into the file and emptied (false: a reader held it; the next run tries again). */
  wal_truncated: boolean;
  /** Ids of the records rewritten (for the digests that show them); not printed. */
  changed_ids: string[];
}

interface TableState {
  fingerprint: string;
  /** Highest rowid checked with that fingerprint. */
  after: number;
  /** A run changed rows but its pass is not complete yet: rebuild the file once it is. */
  vacuum_due?: boolean;
}

const WAL_KEY = 'wal';
/** Rows were rewritten while the full-text index could not be touched (no FTS5): it may still hold their old words. */
const FTS_KEY = 'fts_stale';

/**
 * The full-text index after rows were rewritten (`changed`), or once it is usable again after
 * rows were rewritten without it (CONTRACTS.md §rung-4: no FTS5 on that connection; its triggers were
 * dropped and the index left as it was, old words included, until a connection with FTS5
 * rebuilds it from the records). Merged so no old word stays in an older segment; the word
 * counts copied from it rebuilt (or, with no index, dropped).
 */
function scrubIndex(db: Db, changed: boolean): { optimized: boolean; termDf: boolean } {
  const stale = readScrubState<boolean>(db, FTS_KEY) === true;
  if (!changed && !stale) return { optimized: false, termDf: false };
  if (!ftsUsable(db)) {
    if (changed) {
      db.transaction(() => {
        clearTermDf(db);
        writeScrubState(db, FTS_KEY, true);
      }).immediate();
    }
    return { optimized: false, termDf: false };
  }
  optimizeFts(db);
  const termDf = rebuildTermDf(db);
  if (stale) writeScrubState(db, FTS_KEY, false);
  return { optimized: true, termDf };
}

interface Rewrite {
  row: TextRow;
  /** The changed columns as read, and as redacted. */
  was: Record<string, string>;
  now: Record<string, string>;
  report: RedactionReport;
}

/** The rows of a batch whose text the redactor changes, with their new text. */
function planRewrites(redact: Redact, rows: readonly TextRow[], columns: readonly string[]): Rewrite[] {
  const plans: Rewrite[] = [];
  for (const row of rows) {
    const text: Record<string, string> = {};
    for (const c of columns) if (typeof row[c] === 'string') text[c] = row[c] as string;
    const { fields, report } = redactFields(redact, text);
    const changed = Object.keys(text).filter((c) => fields[c] !== text[c]);
    if (changed.length === 0) continue;
    plans.push({
      row,
      was: Object.fromEntries(changed.map((c) => [c, text[c]!])),
      now: Object.fromEntries(changed.map((c) => [c, fields[c]!])),
      report,
    });
  }
  return plans;
}

/**
 * Rewrite one row. A record title is a key for one kind (one current profile record per title
 * and project): should the redacted title be one another current record already holds, the
 * title gets the row's number too, so the secret goes all the same.
 */
function rewrite(db: Db, table: string, p: Rewrite): boolean {
  try {
    return rewriteRow(db, table, p.row.rowid, p.was, p.now);
  } catch (err) {
    const code = String((err as { code?: unknown }).code ?? '');
    if (!code.startsWith('SQLITE_CONSTRAINT') || p.now.title === undefined) throw err;
    return rewriteRow(db, table, p.row.rowid, p.was, { ...p.now, title: `${p.now.title} (${p.row.rowid})` });
  }
}

export function scrubStore(deps: ScrubDeps): StoreScrubReport {
  const { db } = deps;
  const t0 = performance.now();
  const elapsed = deps.elapsed ?? (() => performance.now() - t0);
  const budget = deps.budgetMs ?? Number.POSITIVE_INFINITY;
  const size = Math.max(1, deps.batchSize ?? 500);
  const out: StoreScrubReport = {
    fingerprint: deps.fingerprint,
    full_pass: false,
    complete: true,
    scanned: 0,
    changed: 0,
    history_changed: 0,
    secrets: emptyReport(),
    embeddings_dropped: 0,
    fts_optimized: false,
    term_df_rebuilt: false,
    vacuumed: false,
    wal_truncated: false,
    changed_ids: [],
  };
  const reports: RedactionReport[] = [];
  let secureWas: boolean | null = null;
  let vacuumDue = false;
  try {
    for (const [table, columns] of Object.entries(SCRUBBED_COLUMNS)) {
      const key = `table:${table}`;
      const prev = readScrubState<TableState>(db, key);
      const state: TableState =
        prev?.fingerprint === deps.fingerprint
          ? prev
          : { fingerprint: deps.fingerprint, after: 0, ...(prev?.vacuum_due ? { vacuum_due: true } : {}) };
      if (state !== prev) out.full_pass = true;
      const extra = table === 'records' ? ['id', 'superseded_at'] : [];
      for (;;) {
        const rows = rowsAfter(db, table, [...columns, ...extra], state.after, size);
        if (rows.length === 0) break;
        const plans = planRewrites(deps.redact, rows, columns);
        if (plans.length > 0 && secureWas === null) secureWas = setSecureDelete(db, true);
        db.transaction(() => {
          for (const p of plans) {
            if (!rewrite(db, table, p)) continue;
            out.changed++;
            reports.push(p.report);
            state.vacuum_due = true;
            if (table === 'records') {
              const id = String(p.row.id);
              out.changed_ids.push(id);
              if (p.row.superseded_at) out.history_changed++;
              out.embeddings_dropped += dropRecordVectors(db, id);
            }
          }
          state.after = rows.at(-1)!.rowid;
          writeScrubState(db, key, state);
        }).immediate();
        out.scanned += rows.length;
        if (rows.length < size) break;
        if (elapsed() > budget) {
          out.complete = false;
          break;
        }
      }
      if (state.vacuum_due && (out.complete || deps.compactAlways)) vacuumDue = true;
    }
    out.secrets = mergeReports(reports);
    const index = scrubIndex(db, out.changed > 0);
    out.fts_optimized = index.optimized;
    out.term_df_rebuilt = index.termDf;
    if (index.optimized && !vacuumDue && out.changed === 0) vacuumDue = true; // an index left stale earlier
    if (vacuumDue) out.vacuumed = compact(db);
    const walPending = readScrubState<boolean>(db, WAL_KEY) === true;
    if (out.changed > 0 || out.vacuumed || walPending) {
      out.wal_truncated = truncateWal(db);
      if (walPending !== !out.wal_truncated) writeScrubState(db, WAL_KEY, !out.wal_truncated);
    }
  } finally {
    if (secureWas !== null) setSecureDelete(db, secureWas);
  }
  return out;
}

/**
 * Rebuild the file and clear the tables' "rebuild due" marks; false when it could not be done
 * now (another connection holding a transaction past the busy timeout): the marks stay and the
 * next run tries again.
 */
function compact(db: Db): boolean {
  try {
    vacuumStore(db);
  } catch {
    return false;
  }
  db.transaction(() => {
    for (const table of Object.keys(SCRUBBED_COLUMNS)) {
      const s = readScrubState<TableState>(db, `table:${table}`);
      if (s?.vacuum_due) writeScrubState(db, `table:${table}`, { ...s, vacuum_due: false });
    }
  }).immediate();
  return true;
}
