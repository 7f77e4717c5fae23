import { storedDriftCounts } from '../core/digest/digest-sections.js';
import { namespacesOf } from '../core/records/records.js';
import { countMergeCandidates, getRun, listMergeCandidates } from '../database/consolidation-repo.js';
import type { Db } from '../database/open.js';
import { formatAge } from '../shared/age.js';

function ago(iso: string, now: Date): string {
  const a = formatAge(iso, now);
  return a === 'just now' ? a : `${a} ago`;
}

/** The consolidation part of `agentctx status`: merge candidates, CLAUDE.md drift, last run. */
export function maintenanceStatus(
  db: Db,
  projectId: string,
  now: Date,
): { json: Record<string, unknown>; lines: string[] } {
  const namespaces = namespacesOf(projectId);
  const count = countMergeCandidates(db, namespaces);
  const top = listMergeCandidates(db, namespaces, 5);
  const drift = storedDriftCounts(db, projectId, now);
  const run = getRun(db, projectId);
  let stopped: string | undefined;
  try {
    stopped = run?.summary ? (JSON.parse(run.summary) as { stopped?: string }).stopped : undefined;
  } catch {
    stopped = undefined;
  }
  const last = run
    ? {
        started_at: run.started_at,
        finished_at: run.finished_at,
        duration_ms: run.duration_ms,
        ...(stopped ? { stopped } : {}),
      }
    : null;
  const lines = [
    `consolidated ${
      !run
        ? 'never (runs after each session; or run `agentctx consolidate`)'
        : run.finished_at
          ? `${ago(run.finished_at, now)} in ${run.duration_ms} ms${stopped === 'time' ? ' (time box reached; resumes next run)' : ''}`
          : `started ${ago(run.started_at, now)}, not finished (the next run completes it)`
    }`,
    `drift     CLAUDE.md: ${drift.missing} decisions/conventions missing, ${drift.contradicted} superseded passages${
      drift.missing + drift.contradicted > 0 ? ' (`agentctx sync` shows the diff)' : ''
    }`,
    `merge     ${count} near-duplicate pair${count === 1 ? '' : 's'} to review${count > 0 ? ' (never merged automatically)' : ''}`,
    ...top.map(
      (c) =>
        `  ${c.record_a} ~ ${c.record_b}  ${c.similarity.toFixed(2)}  ${c.type}: ${c.title_a} / ${c.title_b}`,
    ),
  ];
  return {
    json: {
      merge_candidates: {
        count,
        top: top.map((c) => ({
          record_a: c.record_a,
          record_b: c.record_b,
          type: c.type,
          similarity: c.similarity,
          title_a: c.title_a,
          title_b: c.title_b,
        })),
      },
      drift_candidates: drift,
      last_consolidation: last,
    },
    lines,
  };
}
