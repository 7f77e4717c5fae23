import { describe, expect, it } from 'vitest';
import { chainTimeline } from '../src/web/timeline.js';
import type { ContextRecord } from '../src/web/types.js';

function rec(id: string, over: Partial<ContextRecord>): ContextRecord {
  return {
    id,
    title: 'Search backend',
    body: 'Elasticsearch.',
    valid_from: '2026-01-01T00:00:00.000Z',
    superseded_at: null,
    superseded_by: null,
    source: 'cli',
    ...over,
  } as ContextRecord;
}

describe('the timeline of a supersession chain', () => {
  it('ends a version at its successor valid_from (an imported change ended it when it was made)', () => {
    const chain = [
      rec('A', { superseded_at: '2026-03-05T00:00:00.000Z', superseded_by: 'B' }),
      rec('B', {
        body: 'Postgres FTS.\n\nWhy it changed: one less cluster',
        valid_from: '2026-03-01T00:00:00.000Z',
        source: 'import',
        superseded_at: '2026-04-01T00:00:00.000Z',
      }),
    ];
    expect(chainTimeline(chain)).toEqual([
      {
        id: 'A',
        title: 'Search backend',
        from: '2026-01-01T00:00:00.000Z',
        until: '2026-03-01T00:00:00.000Z',
        source: 'cli',
        why: null,
        closed: false,
      },
      {
        id: 'B',
        title: 'Search backend',
        from: '2026-03-01T00:00:00.000Z',
        until: '2026-04-01T00:00:00.000Z',
        source: 'import',
        why: 'one less cluster',
        closed: true,
      },
    ]);
  });
});
