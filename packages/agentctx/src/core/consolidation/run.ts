import type { Clock, IdGen } from '../../shared/clock.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';
import {
  getRun,
  pruneMergeCandidates,
  saveRun,
  upsertMergeCandidate,
} from '../../storage/consolidation-repo.js';
import { ftsUsable } from '../../storage/fts-index.js';
import { buildMatchExpression, extractTerms, type QueryTerm } from '../../storage/fts-query.js';
import type { Db } from '../../storage/open.js';
import { refreshTermDf, termDfLookup } from '../../storage/term-df.js';
import type { VectorStore } from '../../storage/vectors/store.js';
import { composeDigest } from '../digest/digest.js';
import { writeDigest } from '../digest/digest-file.js';
import { scanDrift } from '../drift/drift.js';
import { namespacesOf } from '../records/records.js';
import {
  type DupInput,
  type MergePlan,
  NEAR_DUPLICATE,
  planExactMerges,
  SKIP_TYPES,
  similarity,
  termSet,
} from './duplicates.js';
import { planScores, type ScoreInput } from './scores.js';
import { scanVectorDuplicates } from './vector-duplicates.js';

/**
 * One consolidation pass over a project and the global profile (SPEC §4 SessionEnd):
 * scores → exact-duplicate merges → near-duplicate candidates → profile refresh → CLAUDE.md
 * drift scores → the SessionStart digest. Every step reads the current records, plans as a pure
 * function of them and `now`, then writes in its own short transactions, so the process can be
 * killed at any point: a rerun recomputes the plan from what was committed and finishes the job.
 * The near-duplicate scan is incremental (a watermark saved with each batch) and time-boxed.
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
}

export interface ConsolidateSummary {
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
  drift: { missing: number; contradicted: number };
  digest: { tokens: number; ids: number; path_written: boolean };
  /** Whether the word-frequency copy (storage/term-df.ts) was rebuilt this run. */
  term_df?: boolean;
  /**
   * SPEC §8 rung 4: no FTS5 here, so the steps that need it (word counts, keyword
   * near-duplicates, CLAUDE.md drift) were left for a run that has it.
   */
  degraded?: 'like-search';
  steps: { name: string; ms: number }[];
}

class Interrupted extends Error {}

const SCORE_BATCH = 2000;
const NEAR_BATCH = 250;
const NEAR_TERMS = 4;
const NEAR_LIMIT = 8;

interface RunState {
  near_dup_after?: string;
}

function parseState(summary: string | null | undefined): RunState {
  try {
    const v = summary ? (JSON.parse(summary) as RunState & { state?: RunState }) : {};
    return v.state ?? {};
  } catch {
    return {};
  }
}

export function consolidate(deps: ConsolidateDeps): ConsolidateSummary {
  const { db } = deps;
  const now = deps.clock();
  const nowIso = now.toISOString();
  const t0 = performance.now();
  const elapsed = deps.elapsed ?? (() => performance.now() - t0);
  const budget = deps.budgetMs ?? 60_000;
  const namespaces = namespacesOf(deps.project.id);
  const nsSql = namespaces.map(() => '?').join(',');
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

    step('scores', () => {
      const rows = db
        .prepare(
          `SELECT id, type, pinned, confidence, valid_from, access_count, last_accessed, score FROM records
           WHERE project_id IN (${nsSql}) AND superseded_at IS NULL`,
        )
        .all(...namespaces) as ScoreInput[];
      summary.records = rows.length;
      const changes = planScores(rows, now);
      const update = db.prepare('UPDATE records SET score = ? WHERE id = ?');
      for (let i = 0; i < changes.length; i += SCORE_BATCH) {
        const batch = changes.slice(i, i + SCORE_BATCH);
        db.transaction(() => {
          for (const c of batch) update.run(c.score, c.id);
        }).immediate();
        summary.scores_updated += batch.length;
        deps.onProgress?.('scores', Math.min(i + SCORE_BATCH, changes.length), changes.length);
        committed('scores');
      }
    });

    step('term frequencies', () => {
      if (fullText) summary.term_df = refreshTermDf(db).rebuilt;
      committed('term-frequencies');
    });

    step('duplicates', () => {
      const rows = db
        .prepare(
          `SELECT id, project_id, type, title, body, pinned, confidence, reinforce_count, access_count,
             last_accessed, recorded_at FROM records
           WHERE project_id IN (${nsSql}) AND superseded_at IS NULL AND type NOT IN ('handover', 'profile')`,
        )
        .all(...namespaces) as DupInput[];
      const plans = planExactMerges(rows, deps.reinforceThreshold ?? 3);
      plans.forEach((p, i) => {
        applyMerge(deps, p, nowIso);
        summary.merged += p.copies.length;
        deps.onProgress?.('duplicates', i + 1, plans.length);
        committed('duplicates');
      });
    });

    step('near-duplicates', () => {
      const outcome = fullText
        ? scanNearDuplicates(deps, namespaces, state, nowIso, elapsed, budget, committed)
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
      db.transaction(() => pruneMergeCandidates(db, namespaces)).immediate();
      summary.merge_candidates = (
        db
          .prepare(
            `SELECT COUNT(*) AS n FROM merge_candidates WHERE project_id IN (${nsSql}) AND status = 'open'`,
          )
          .get(...namespaces) as { n: number }
      ).n;
      committed('near-duplicates');
    });

    if (deps.refreshProfile && deps.project.id !== GLOBAL_PROJECT) {
      step('profile', () => {
        deps.refreshProfile!(now);
        committed('profile');
      });
    }

    let driftCounts = { missing: 0, contradicted: 0 };
    if (deps.project.id !== GLOBAL_PROJECT && fullText) {
      step('drift', () => {
        const scan = scanDrift(db, deps.project, now);
        // Without a CLAUDE.md there is nothing to be behind: no drift scores, no hint.
        const hasMemoryFile = scan.files.length > 0;
        if (!hasMemoryFile) {
          scan.assessments = [];
          scan.contradicted = [];
          scan.missing = [];
        }
        driftCounts = { missing: scan.missing.length, contradicted: scan.contradicted.length };
        db.transaction(() => {
          db.prepare(
            'UPDATE records SET claudemd_drift_score = 0 WHERE project_id = ? AND claudemd_drift_score != 0',
          ).run(deps.project.id);
          const set = db.prepare('UPDATE records SET claudemd_drift_score = ? WHERE id = ?');
          for (const a of scan.assessments) set.run(a.score, a.record.id);
          for (const c of scan.contradicted) set.run(1, c.superseded.id);
        }).immediate();
        summary.drift = driftCounts;
        committed('drift');
      });
    }

    step('digest', () => {
      const d = composeDigest(db, deps.project, {
        now,
        drift: driftCounts,
        ...(deps.vectors ? { vectors: deps.vectors } : {}),
      });
      writeDigest(deps.digestsDir, deps.project.id, d);
      summary.digest = { tokens: d.tokens, ids: d.ids.length, path_written: true };
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

/** Supersede the newer copies into the keeper and fold their sightings into it: one transaction. */
function applyMerge(deps: ConsolidateDeps, p: MergePlan, nowIso: string): void {
  const { db } = deps;
  db.transaction(() => {
    const mark = db.prepare(
      'UPDATE records SET superseded_at = ?, superseded_by = ? WHERE id = ? AND superseded_at IS NULL',
    );
    let done = 0;
    for (const id of p.copies) {
      if (mark.run(nowIso, p.keeper, id).changes === 1) {
        done++;
        db.prepare("INSERT INTO edges (id, from_id, to_id, rel_type) VALUES (?, ?, ?, 'supersedes')").run(
          deps.newId(),
          p.keeper,
          id,
        );
      }
    }
    if (done === p.copies.length) {
      db.prepare(
        `UPDATE records SET pinned = ?, confidence = ?, reinforce_count = ?, access_count = ?, last_accessed = ?
         WHERE id = ? AND superseded_at IS NULL`,
      ).run(p.pinned, p.confidence, p.reinforce_count, p.access_count, p.last_accessed, p.keeper);
    }
  }).immediate();
}

type NearRow = {
  id: string;
  project_id: string;
  type: string;
  title: string;
  body: string;
  recorded_at: string;
};

/**
 * Record near-duplicate pairs. Records newer than the saved watermark are each searched with
 * their rarest terms among current records of the same namespace and type; batches commit with
 * the watermark, so a killed or timed-out scan resumes where it stopped.
 */
function scanNearDuplicates(
  deps: ConsolidateDeps,
  namespaces: string[],
  state: RunState,
  nowIso: string,
  elapsed: () => number,
  budget: number,
  committed: (step: string) => void,
): 'done' | 'time' {
  const { db } = deps;
  const nsSql = namespaces.map(() => '?').join(',');
  const [afterAt, afterId] = (state.near_dup_after ?? '|').split('|') as [string, string];
  const todo = db
    .prepare(
      `SELECT id, project_id, type, title, body, recorded_at FROM records
       WHERE project_id IN (${nsSql}) AND superseded_at IS NULL AND type NOT IN ('handover', 'profile')
         AND (recorded_at > ? OR (recorded_at = ? AND id > ?))
       ORDER BY recorded_at, id`,
    )
    .all(...namespaces, afterAt, afterAt, afterId) as NearRow[];
  const similar = db.prepare(
    `SELECT r.id, r.title, r.body, r.recorded_at, -bm25(records_fts, 2.0, 1.0) AS rel
     FROM records_fts JOIN records r ON r.rowid = records_fts.rowid
     WHERE records_fts MATCH ? AND r.project_id = ? AND r.type = ? AND r.superseded_at IS NULL
     ORDER BY bm25(records_fts, 2.0, 1.0) LIMIT ${NEAR_LIMIT}`,
  );
  const lookup = termDfLookup(db);
  const dfCache = new Map<string, number>();
  const df = (t: QueryTerm): number => {
    const key = `${t.stem}|${t.prefix ? 1 : 0}|${t.forms?.join(',') ?? ''}`;
    let n = dfCache.get(key);
    if (n === undefined) {
      n = lookup(t);
      dfCache.set(key, n);
    }
    return n;
  };
  // Terms in more than 2% of the store cannot tell duplicates apart, and each one would make
  // BM25 score thousands of rows: they are left out of the query (not out of the similarity).
  const corpus = (db.prepare('SELECT COALESCE(MAX(rowid), 0) AS n FROM records').get() as { n: number }).n;
  const maxDf = Math.max(25, Math.ceil(corpus * 0.02));
  /** The rarest terms shared with some other record: they discriminate and keep the match set small. */
  const rarest = (terms: QueryTerm[], max: number): QueryTerm[] =>
    terms
      .map((t) => ({ t, n: df(t) }))
      .filter((x) => x.n > 1 && x.n <= maxDf) // a term only this record has cannot find another
      .sort((a, b) => a.n - b.n || (a.t.stem < b.t.stem ? -1 : 1))
      .slice(0, max)
      .map((x) => x.t);
  const termCache = new Map<string, Set<string>>();
  const terms_ = (r: NearRow): Set<string> => {
    let set = termCache.get(r.id);
    if (!set) {
      set = termSet(r);
      if (termCache.size > 50_000) termCache.clear();
      termCache.set(r.id, set);
    }
    return set;
  };
  const saveState = () =>
    db
      .prepare(
        'UPDATE consolidation_runs SET summary = json_set(COALESCE(summary, ?), ?, ?) WHERE project_id = ?',
      )
      .run('{}', '$.state.near_dup_after', state.near_dup_after ?? '', deps.project.id);
  for (let i = 0; i < todo.length; i += NEAR_BATCH) {
    if (elapsed() > budget) return 'time';
    const batch = todo.slice(i, i + NEAR_BATCH);
    const found: { a: NearRow; b: NearRow; sim: number }[] = [];
    for (const a of batch) {
      if (SKIP_TYPES.has(a.type)) continue;
      const terms = rarest(extractTerms(`${a.title}\n${a.body}`), NEAR_TERMS);
      const match = buildMatchExpression(terms);
      if (!match) continue;
      const rows = similar.all(match, a.project_id, a.type) as (NearRow & { rel: number })[];
      const self = rows.find((r) => r.id === a.id)?.rel ?? rows[0]?.rel ?? 0;
      if (self <= 0) continue;
      const aTerms = terms_(a);
      for (const b of rows) {
        if (b.id === a.id) continue;
        const sim = similarity(aTerms, terms_(b), b.rel / self);
        if (sim >= NEAR_DUPLICATE)
          found.push({ a, b: { ...b, project_id: a.project_id, type: a.type }, sim });
      }
    }
    const last = batch[batch.length - 1]!;
    db.transaction(() => {
      for (const f of found) {
        const [x, y] =
          f.a.recorded_at < f.b.recorded_at || (f.a.recorded_at === f.b.recorded_at && f.a.id < f.b.id)
            ? [f.a, f.b]
            : [f.b, f.a];
        const existing = db
          .prepare('SELECT similarity FROM merge_candidates WHERE record_a = ? AND record_b = ?')
          .get(x.id, y.id) as { similarity: number } | undefined;
        if (existing && existing.similarity >= f.sim) continue;
        upsertMergeCandidate(db, {
          project_id: f.a.project_id,
          type: f.a.type,
          record_a: x.id,
          record_b: y.id,
          similarity: f.sim,
          detected_at: nowIso,
        });
      }
      state.near_dup_after = `${last.recorded_at}|${last.id}`;
      saveState();
    }).immediate();
    deps.onProgress?.('near-duplicates', Math.min(i + NEAR_BATCH, todo.length), todo.length);
    committed('near-duplicates');
  }
  return 'done';
}
