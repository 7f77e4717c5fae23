import type { App } from '../app/context.js';
import { type ReviewCounts, reviewSelection } from '../core/review/queue.js';
import type { Db } from '../database/open.js';

const LABELS: [keyof ReviewCounts['by_kind'], string, string][] = [
  ['conflict', 'team conflict to choose', 'team conflicts to choose'],
  ['team', 'team-file change', 'team-file changes'],
  ['stale', 'stale record', 'stale records'],
  ['duplicate', 'near-duplicate pair', 'near-duplicate pairs'],
  ['inferred', 'inferred record to confirm', 'inferred records to confirm'],
];

/**
 * The review part of `agentctx status`: what waits in `agentctx review`, counted by the same
 * selection that builds the queue (core/review/queue.ts), so the two never disagree. Reads only:
 * `db` may be a read-only snapshot.
 */
export function reviewStatus(a: App, db: Db): { json: { review: ReviewCounts }; lines: string[] } {
  // one item per kind is built; the counts are of the whole queue whatever the limit
  const { counts } = reviewSelection({
    db,
    projectId: a.project.id,
    projectRoot: a.project.root,
    redact: a.redact,
    now: a.clock,
    limit: 1,
  });
  const parts = LABELS.filter(([k]) => counts.by_kind[k] > 0).map(
    ([k, one, many]) => `${counts.by_kind[k]} ${counts.by_kind[k] === 1 ? one : many}`,
  );
  const line =
    counts.total === 0 ? 'review    nothing waits' : `review    ${parts.join(', ')} (\`${counts.hint}\`)`;
  return { json: { review: counts }, lines: [line] };
}
