import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOOL_SEARCH, toolSearchOptions } from '../../../../src/core/retrieval/tool-search.js';

const now = new Date('2026-01-01T00:00:00Z');

describe('toolSearchOptions: the engine options of ctx_search (and of bench --path mcp)', () => {
  it('keeps the engine defaults: project scope, no history, the default limit, no hook settings', () => {
    const opts = toolSearchOptions({ projectId: 'p', query: 'redis sessions', now });
    expect(opts).toMatchObject({ projectId: 'p', query: 'redis sessions', scope: 'project', history: false });
    expect(opts.limit).toBe(TOOL_SEARCH.defaultLimit);
    expect(opts.candidates).toBeUndefined();
    expect(opts.indexFirst).toBeUndefined();
    expect(opts.postingsBudget).toBeUndefined();
  });

  it('passes type, scope, history and file ids through, and never exceeds the tool maximum', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100 }), (limit) => {
        const opts = toolSearchOptions({
          projectId: 'p',
          query: 'q',
          type: 'bugfix',
          scope: 'global',
          history: true,
          onlyIds: ['a'],
          limit,
          now,
        });
        expect(opts).toMatchObject({ types: ['bugfix'], scope: 'global', history: true, onlyIds: ['a'] });
        expect(opts.limit).toBe(Math.min(limit, TOOL_SEARCH.maxLimit));
      }),
      { seed: 7, numRuns: 50 },
    );
  });
});
