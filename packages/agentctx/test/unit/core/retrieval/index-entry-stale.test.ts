import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  INDEX_ENTRY_TOKENS,
  indexEntryTokens,
  toIndexEntry,
} from '../../../../src/core/retrieval/index-entry.js';
import type { StaleFile } from '../../../../src/shared/stale-label.js';
import type { ContextRecord } from '../../../../src/shared/types.js';

const record = (title: string): ContextRecord =>
  ({
    id: '01JDQ8ZZZZZZZZZZZZZZZZZZZZ',
    project_id: 'p',
    type: 'decision',
    title,
    body: 'b',
    scope: 'project',
    pinned: 0,
    confidence: 'explicit',
    reinforce_count: 0,
    valid_from: '2026-01-01T00:00:00.000Z',
    recorded_at: '2026-01-01T00:00:00.000Z',
    superseded_at: null,
    superseded_by: null,
    access_count: 0,
    last_accessed: null,
    score: 1,
    claudemd_drift_score: 0,
    source: 'cli',
    session_id: null,
    pending_embedding: 0,
  }) as ContextRecord;

describe('ctx_search index entries of stale records', () => {
  it('carry a stale field and stay within the 50-token entry budget, whatever the title and path', () => {
    const stale = fc.record({
      path: fc.string({ minLength: 1, maxLength: 200 }),
      state: fc.constantFrom('changed', 'deleted', 'renamed') as fc.Arbitrary<StaleFile['state']>,
      new_path: fc.option(fc.string({ maxLength: 80 })),
      commits: fc.option(fc.nat({ max: 100_000 })),
      changed_share: fc.option(fc.double({ min: 0, max: 1, noNaN: true })),
    });
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 300 }),
        fc.array(stale, { minLength: 1, maxLength: 4 }),
        (title, files) => {
          const e = toIndexEntry(
            { record: record(title), score: 0.5, relevance: 0.5, matched: 1, coverage: 1 },
            new Date('2026-02-01T00:00:00Z'),
            files,
          );
          expect(e.stale).toBeTruthy();
          expect(indexEntryTokens(e)).toBeLessThanOrEqual(INDEX_ENTRY_TOKENS);
        },
      ),
      { seed: 50, numRuns: 300 },
    );
  });

  it('names the file and the commits', () => {
    const e = toIndexEntry(
      { record: record('Charges round half-even'), score: 1, relevance: 1, matched: 1, coverage: 1 },
      new Date('2026-02-01T00:00:00Z'),
      [{ path: 'src/billing/charge.ts', state: 'changed', new_path: null, commits: 14, changed_share: 0.3 }],
    );
    expect(e.stale).toBe('charge.ts changed, 14 commits');
  });
});
