import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { redactorFor } from '../../../../src/core/redaction/redact.js';
import { type ReviewKind, reviewQueue, reviewSelection } from '../../../../src/core/review/queue.js';
import { upsertMergeCandidate } from '../../../../src/database/consolidation-repo.js';
import { replaceStaleness } from '../../../../src/database/staleness-repo.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * The counts `agentctx status` shows are the queue `agentctx review` lists, whatever the page
 * size: each kind lists min(count, limit) items, a large enough page lists exactly the counts,
 * and a record is asked about once (stale or inferred, never both).
 */

const KINDS: ReviewKind[] = ['team', 'stale', 'duplicate', 'inferred'];

const recordArb = fc.record({
  type: fc.constantFrom('decision', 'convention', 'preference', 'discovery', 'bugfix'),
  confidence: fc.constantFrom('explicit', 'inferred', 'inferred'),
  source: fc.constantFrom('cli', 'llm_extraction', 'hook_observation'),
  global: fc.boolean(),
  stale: fc.boolean(),
  superseded: fc.integer({ min: 0, max: 5 }).map((n) => n === 0),
});

const worldArb = fc.record({
  records: fc.array(recordArb, { minLength: 0, maxLength: 14 }),
  pairs: fc.array(fc.tuple(fc.nat(), fc.nat()), { maxLength: 6 }),
  limit: fc.integer({ min: 1, max: 6 }),
});

describe('reviewSelection', () => {
  it('counts every kind in full, and lists min(count, limit) of each', () => {
    fc.assert(
      fc.property(worldArb, (world) => {
        const t = tempDir('agentctx-review-queue-');
        const { db, deps, clock } = testStore(t.path, 'p-review');
        try {
          const ids: string[] = [];
          const stale: string[] = [];
          // rows for records since superseded too: only current records are ever asked about
          const staleRows: string[] = [];
          for (const [i, r] of world.records.entries()) {
            const rec = createRecord(deps, {
              type: r.type,
              title: `Record number ${i} about ${r.type}`,
              body: `Body ${i}.`,
              scope: r.global && r.type === 'preference' ? 'global' : 'project',
              confidence: r.confidence as 'explicit' | 'inferred',
              source: r.source as 'cli',
            });
            const current = r.superseded
              ? supersedeRecord(deps, rec.id, {
                  body: `Body ${i}, corrected.`,
                  rationale: 'changed',
                  source: 'cli',
                }).record
              : rec;
            ids.push(current.id);
            if (r.stale) stale.push(current.id);
            if (r.stale) staleRows.push(...new Set([rec.id, current.id]));
          }
          replaceStaleness(
            db,
            'p-review',
            staleRows.map((record_id) => ({
              record_id,
              path: 'src/a.ts',
              state: 'changed' as const,
              new_path: null,
              commits: 1,
              changed_share: 0.5,
            })),
            clock().toISOString(),
          );
          for (const [x, y] of world.pairs) {
            if (ids.length < 2) break;
            const a = ids[x % ids.length]!;
            const b = ids[(x + 1 + (y % (ids.length - 1))) % ids.length]!;
            const [first, second] = a < b ? [a, b] : [b, a];
            upsertMergeCandidate(db, {
              project_id: 'p-review',
              type: 'decision',
              record_a: first,
              record_b: second,
              similarity: 0.9,
              detected_at: clock().toISOString(),
            });
          }
          const input = {
            db,
            projectId: 'p-review',
            projectRoot: t.path,
            redact: redactorFor(undefined).redact,
            now: clock,
          };
          const paged = reviewSelection({ ...input, limit: world.limit });
          const all = reviewSelection({ ...input, limit: 10_000 });
          expect(paged.counts).toEqual(all.counts);
          const listed = (items: { kind: ReviewKind }[], k: ReviewKind) =>
            items.filter((i) => i.kind === k).length;
          for (const k of KINDS) {
            expect(listed(all.items, k), k).toBe(all.counts.by_kind[k]);
            expect(listed(paged.items, k), k).toBe(Math.min(all.counts.by_kind[k], world.limit));
          }
          expect(all.counts.total).toBe(all.items.length);
          expect(reviewQueue({ ...input, limit: world.limit })).toEqual(paged.items);
          // asked about once: a stale record is not also listed as inferred
          const staleIds = new Set(all.items.filter((i) => i.kind === 'stale').map((i) => i.record_ids[0]));
          expect(staleIds.size).toBe(stale.length);
          for (const i of all.items.filter((x) => x.kind === 'inferred'))
            expect(staleIds.has(i.record_ids[0])).toBe(false);
        } finally {
          db.close();
          t.cleanup();
        }
      }),
      { seed: 1819, numRuns: 30 },
    );
  });
});
