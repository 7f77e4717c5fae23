import { countMergeCandidates, getRun, saveRun } from '../../database/consolidation-repo.js';
import { AnchorReader } from '../../database/file-anchors.js';
import { ftsUsable } from '../../database/fts-index.js';
import type { Db } from '../../database/open.js';
import { equaliseStaleCounters } from '../../database/retirement.js';
import { refreshTermDf } from '../../database/term-df.js';
import type { VectorStore } from '../../database/vectors/store.js';
import type { WriterFilter } from '../../database/writer-filter.js';
import { readGitHistory } from '../../git/git-history.js';
import type { Clock, IdGen } from '../../shared/clock.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';
import { type CodeGraphSummary, refreshCodeGraph } from '../codegraph/refresh.js';
import { writeStampedDigest } from '../digest/current-digest.js';
import { composeDigest } from '../digest/digest.js';
import { namespacesOf } from '../records/records.js';
import { applyMerge, applyScores, pruneCandidates } from './apply.js';
import { runDriftStep } from './drift-step.js';
import { planKeyedMerges } from './exact-merges.js';
import { scoreInputs } from './inputs.js';
import { scanNearDuplicates } from './near-duplicates.js';
import { parseState, type RunState } from './plan.js';
import { prepareCandidateScans, type RebuildReason } from './rebuild.js';
import { planScores } from './scores.js';
import type { SliceOptions } from './slices.js';
import { checkStaleness, type StalenessSummary } from './staleness.js';
import { scanVectorDuplicates } from './vector-duplicates.js';

/**
 * One consolidation pass over a project and the global profile (CONTRACTS.md §hook-session-end):
 * exact-duplicate merges → scores → near-duplicate candidates → profile refresh → code graph →
 * CLAUDE.md drift scores → the SessionStart digest. Every step reads the current records (inputs.ts),
 * plans as a pure function of them and `now` (plan.ts, scores.ts, duplicates.ts), then writes
 * in its own short transactions (apply.ts), so the process can be killed at any point: a rerun
 * recomputes the plan from what was committed and finishes the job. The near-duplicate scan is
 * incremental (a watermark saved with each batch) and time-boxed (near-duplicates.ts).
 */

export interface ConsolidateDeps {
  db: Db;
  clock: Clock;
  newId: IdGen;
  project: { id: string; name: string; root: string };
  digestsDir: string;
  reinforceThreshold?: number;
  /** Time box for the long steps; past it the near-duplicate scan stops and resumes next run. */
  budgetMs?: number;
  /** Milliseconds since the run began (injected for tests; defaults to a monotonic timer). */
  elapsed?: () => number;
  onProgress?: (step: string, done: number, total: number) => void;
  /** Called after every committed transaction; returning true stops the run there (a simulated kill). */
  checkpoint?: (step: string) => boolean;
  /** Rule-based refresh of the project's profile records, when the caller has one. */
  refreshProfile?: (now: Date) => void;
  /** Record embeddings, when the semantic layer is on: adds the vector near-duplicate scan and RRF in the digest. */
  vectors?: VectorStore;
  /** Recompute the merge candidates from scratch (`--rebuild`); dismissals are kept (rebuild.ts). */
  rebuild?: boolean;
  /** Bounds of one write slice (slices.ts); tests fix them to get the same commit points every run. */
  slice?: SliceOptions;
  /** Whose records the shared digest shows (records kept to their writer are left out). */
  writers?: WriterFilter;
}

interface ConsolidateSummary {
  project_id: string;
  started_at: string;
  finished: boolean;
  /** Why the run ended early: the time box (resumes next run) or an interruption. */
  stopped?: 'time' | 'interrupted';
  duration_ms: number;
  records: number;
  scores_updated: number;
  merged: number;
  merge_candidates: number;
  /** Why the near-duplicate scans started over this run (rebuild.ts), if they did. */
  rebuilt?: RebuildReason;
  drift: { missing: number; contradicted: number };
  digest: { tokens: number; ids: number; path_written: boolean };
  /** Whether the word-frequency copy (database/term-df.ts) was rebuilt this run. */
  term_df?: boolean;
  /** The module/symbol graph read from the touched files (core/codegraph). */
  code_graph?: CodeGraphSummary;
  /** Records whose linked files changed, moved or went since they were linked (staleness.ts). */
  staleness?: StalenessSummary;
  /**
   * CONTRACTS.md §rung-4: no FTS5 here, so the steps that need it (word counts, keyword
   * near-duplicates, CLAUDE.md drift) were left for a run that has it.
   */
  degraded?: 'like-search';
  /** Records given a content key this run (exact-merges.ts); the steps that reused the last result. */
  keyed?: number;
  reused?: string[];
  steps: { name: string; ms: number }[];
}

class Interrupted extends Error {}

export function consolidate(deps: ConsolidateDeps): ConsolidateSummary {
  const { db } = deps;
  const now = deps.clock();
  const nowIso = now.toISOString();
  const t0 = performance.now();
  const elapsed = deps.elapsed ?? (() => performance.now() - t0);
  const budget = deps.budgetMs ?? 60_000;
  const namespaces = namespacesOf(deps.project.id);
  const summary: ConsolidateSummary = {
    project_id: deps.project.id,
    started_at: nowIso,
    finished: false,
    duration_ms: 0,
    records: 0,
    scores_updated: 0,
    merged: 0,
    merge_candidates: 0,
    drift: { missing: 0, contradicted: 0 },
    digest: { tokens: 0, ids: 0, path_written: false },
    steps: [],
  };
  const previous = getRun(db, deps.project.id);
  const state: RunState = parseState(previous?.summary);
  const persist = (finished: boolean) =>
    saveRun(db, {
      project_id: deps.project.id,
      started_at: nowIso,
      finished_at: finished ? deps.clock().toISOString() : null,
      duration_ms: finished ? Math.round(elapsed()) : null,
      summary: JSON.stringify({ ...summary, state }),
    });
  const committed = (step: string) => {
    if (deps.checkpoint?.(step)) throw new Interrupted(step);
  };
  const step = (name: string, fn: () => void) => {
    const s = performance.now();
    fn();
    summary.steps.push({ name, ms: Math.round(performance.now() - s) });
  };

  const fullText = ftsUsable(db);
  if (!fullText) summary.degraded = 'like-search';

  try {
    persist(false);
    committed('start');

    // merges first: a keeper's score must reflect the sightings, pin and confidence it absorbs
    step('duplicates', () => {
      const k = deps.reinforceThreshold ?? 3;
      const { plans, keyed } = planKeyedMerges(db, namespaces, k, () => committed('keys'), deps.slice);
      summary.keyed = keyed;
      plans.forEach((p, i) => {
        applyMerge(db, deps.newId, p, nowIso);
        summary.merged += p.copies.length;
        deps.onProgress?.('duplicates', i + 1, plans.length);
        committed('duplicates');
      });
    });

    step('scores', () => {
      const rows = scoreInputs(db, namespaces);
      summary.records = rows.length;
      const changes = planScores(rows, now);
      applyScores(
        db,
        changes,
        (done) => {
          summary.scores_updated = done;
          deps.onProgress?.('scores', done, changes.length);
          committed('scores');
        },
        deps.slice,
      );
    });

    step('term frequencies', () => {
      if (fullText)
        summary.term_df = refreshTermDf(db, () => committed('term-frequencies'), deps.slice).rebuilt;
      committed('term-frequencies');
    });

    step('near-duplicates', () => {
      const rebuilt = prepareCandidateScans(db, deps.project.id, namespaces, state, deps.rebuild === true);
      if (rebuilt) {
        summary.rebuilt = rebuilt;
        committed('rebuild');
      }
      const outcome = fullText
        ? scanNearDuplicates({
            db,
            projectId: deps.project.id,
            namespaces,
            state,
            nowIso,
            elapsed,
            budgetMs: budget,
            onProgress: (d, t) => deps.onProgress?.('near-duplicates', d, t),
            committed: () => committed('near-duplicates'),
          })
        : 'done';
      if (outcome === 'time') summary.stopped = 'time';
      if (deps.vectors && outcome === 'done') {
        const vec = scanVectorDuplicates({
          db,
          store: deps.vectors,
          projectId: deps.project.id,
          namespaces,
          nowIso,
          elapsed,
          budgetMs: budget,
          onProgress: (d, t) => deps.onProgress?.('vector near-duplicates', d, t),
          committed: () => committed('vector-duplicates'),
        });
        if (vec.outcome === 'time') summary.stopped = 'time';
      }
      state.candidate_rows = pruneCandidates(db, deps.project.id, namespaces);
      summary.merge_candidates = countMergeCandidates(db, namespaces);
      committed('near-duplicates');
    });

    if (deps.refreshProfile && deps.project.id !== GLOBAL_PROJECT) {
      step('profile', () => {
        deps.refreshProfile!(now);
        // the profile records it wrote are counted too: a run leaves the counts equal to the index
        if (fullText && refreshTermDf(db, () => committed('profile'), deps.slice).rebuilt)
          summary.term_df = true;
        committed('profile');
      });
    }

    if (deps.project.id !== GLOBAL_PROJECT) {
      step('code graph', () => {
        summary.code_graph = refreshCodeGraph({
          db,
          newId: deps.newId,
          projectId: deps.project.id,
          root: deps.project.root,
        });
        committed('code-graph');
      });
    }

    if (deps.project.id !== GLOBAL_PROJECT) {
      step('staleness', () => {
        summary.staleness = checkStaleness({
          db,
          projectId: deps.project.id,
          reader: new AnchorReader(deps.project.root),
          history: readGitHistory(deps.project.root),
          nowIso,
        });
        committed('staleness');
      });
    }

    let driftCounts = { missing: 0, contradicted: 0 };
    if (deps.project.id !== GLOBAL_PROJECT && fullText) {
      step('drift', () => {
        const out = runDriftStep({
          db,
          project: deps.project,
          now,
          state,
          full: deps.rebuild === true,
          afterSlice: () => committed('drift'),
          ...(deps.slice ? { slice: deps.slice } : {}),
        });
        summary.drift = driftCounts = out.counts;
        if (out.reused) summary.reused = ['drift'];
        committed('drift');
      });
    }

    step('digest', () => {
      // a writer killed mid-retirement left the counters unequal: repair them once it is surely dead
      equaliseStaleCounters(db.name, Date.now());
      const { digest: d } = writeStampedDigest(db, deps.digestsDir, deps.project.id, () =>
        composeDigest(db, deps.project, {
          now,
          drift: driftCounts,
          ...(deps.vectors ? { vectors: deps.vectors } : {}),
          ...(deps.writers ? { writers: deps.writers } : {}),
        }),
      );
      summary.digest = { tokens: d?.tokens ?? 0, ids: d?.ids.length ?? 0, path_written: d !== null };
      committed('digest');
    });

    summary.finished = summary.stopped === undefined;
    summary.duration_ms = Math.round(elapsed());
    persist(true);
    return summary;
  } catch (err) {
    if (err instanceof Interrupted) {
      summary.stopped = 'interrupted';
      summary.duration_ms = Math.round(elapsed());
      return summary;
    }
    throw err;
  }
}
