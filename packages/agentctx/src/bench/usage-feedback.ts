import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyScores } from '../core/consolidation/apply.js';
import { scoreInputs } from '../core/consolidation/inputs.js';
import { planScores, USAGE_TUNING } from '../core/consolidation/scores.js';
import { promptInjection } from '../core/injection/prompt-injection.js';
import { search } from '../core/retrieval/search.js';
import { type Db, openDb } from '../database/open.js';
import { addShown, setVerdict } from '../database/usage-repo.js';
import type { BenchDataset, BenchQuery } from './dataset.js';
import { type HookMetrics, type HookOutcome, hookOutcome, meanHookMetrics } from './hook-path.js';
import { type Metrics, meanMetrics, scoreQuery } from './metrics.js';
import { loadDataset } from './run.js';

/**
 * Does the usage factor of the derived score (core/consolidation/scores.ts) help or hurt
 * retrieval? Half the queries (by a stable hash of their id) play past sessions: each is a
 * prompt, run `rounds` times, whose injected records count as shown, and as used when they are
 * relevant to it (what a session that used exactly the relevant records would leave behind);
 * consolidation's scores are recomputed after each round. The other half is measured with the
 * scores consolidation computes without any usage evidence, then with it.
 */

interface FeedbackReport {
  dataset: string;
  feedbackQueries: number;
  heldOutQueries: number;
  rounds: number;
  /** Records with usage evidence enough to move their score. */
  recordsMoved: number;
  before: { hook: HookMetrics; engine: Metrics };
  after: { hook: HookMetrics; engine: Metrics };
}

function fnv(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

function rescore(db: Db, projects: readonly string[], now: Date): void {
  applyScores(db, planScores(scoreInputs(db, projects), now));
}

function measure(db: Db, queries: readonly BenchQuery[], now: Date): { hook: HookMetrics; engine: Metrics } {
  const hook: HookOutcome[] = [];
  const engine: Metrics[] = [];
  for (const q of queries) {
    hook.push(hookOutcome(db, q, now));
    const res = search(db, { projectId: q.project, query: q.query, limit: 10, now });
    engine.push(
      scoreQuery(
        res.hits.map((h) => h.record.id),
        q.relevant,
      ),
    );
  }
  return { hook: meanHookMetrics(hook), engine: meanMetrics(engine) };
}

export function runUsageFeedback(
  data: BenchDataset,
  rounds = 5,
  tuning: Partial<typeof USAGE_TUNING> = {},
): FeedbackReport {
  const saved = { ...USAGE_TUNING };
  Object.assign(USAGE_TUNING, tuning);
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-usage-'));
  const db = openDb(join(dir, 'agentctx.db'));
  try {
    const now = loadDataset(db, data);
    const projects = [...new Set(data.records.map((r) => r.project))];
    const feedback = data.queries.filter((q) => fnv(q.id) % 2 === 0);
    const heldOut = data.queries.filter((q) => fnv(q.id) % 2 === 1);
    rescore(db, projects, now);
    const before = measure(db, heldOut, now);
    const at = now.toISOString();
    for (let round = 0; round < rounds; round++) {
      for (const q of feedback) {
        const inj = promptInjection(db, { projectId: q.project, prompt: q.query, now });
        if (!inj) continue;
        const session = `feedback-${round}-${q.id}`;
        const relevant = new Set(q.relevant);
        db.transaction(() => {
          addShown(db, session, inj.ids, 'prompt', inj.tokens / inj.ids.length, at);
          for (const id of inj.ids)
            setVerdict(db, session, id, relevant.has(id) ? 'used' : 'unused', 'bench', at);
        })();
      }
      rescore(db, projects, now);
    }
    const moved = db.prepare('SELECT COUNT(*) AS n FROM record_usage WHERE shown_count >= 3').get() as {
      n: number;
    };
    return {
      dataset: data.name,
      feedbackQueries: feedback.length,
      heldOutQueries: heldOut.length,
      rounds,
      recordsMoved: moved.n,
      before,
      after: measure(db, heldOut, now),
    };
  } finally {
    Object.assign(USAGE_TUNING, saved);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatFeedbackReport(r: FeedbackReport): string {
  const f = (v: number) => v.toFixed(3).padStart(7);
  const line = (label: string, m: { hook: HookMetrics; engine: Metrics }) =>
    `${label.padEnd(22)}${f(m.hook.r3)}${f(m.hook.precision)}${f(m.hook.injectRate)}${f(m.engine.r5)}${f(m.engine.ndcg10)}${f(m.engine.mrr)}`;
  return [
    `dataset ${r.dataset}: usage feedback from ${r.feedbackQueries} queries × ${r.rounds} rounds, measured on the other ${r.heldOutQueries}; ${r.recordsMoved} records shown 3+ times`,
    `${''.padEnd(22)}${['hookR3', 'prec', 'inject', 'R@5', 'NDCG10', 'MRR'].map((h) => h.padStart(7)).join('')}`,
    line('without usage', r.before),
    line('with usage factor', r.after),
  ].join('\n');
}
