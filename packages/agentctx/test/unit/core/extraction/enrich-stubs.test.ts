import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ENRICHED_RATIONALE,
  enrichedBody,
  enrichStubs,
} from '../../../../src/core/extraction/enrich-stubs.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { BODY_MAX, type ContextRecord } from '../../../../src/shared/types.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'proj');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const len = (x: string) => [...x].length;

describe('enrichedBody', () => {
  it('fits the body limit with the rationale, or refuses when cause and fix alone do not', () => {
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1200 });
    fc.assert(
      fc.property(text, text, fc.string({ maxLength: 2000 }), (cause, fix, stub) => {
        const body = enrichedBody({ cause, fix }, stub);
        const head = `Cause: ${cause.trim()}\nFix: ${fix.trim()}`;
        if (body === null) {
          expect(len(head)).toBeGreaterThan(BODY_MAX - len(`\n\nWhy it changed: ${ENRICHED_RATIONALE}`));
          return;
        }
        expect(body.startsWith(head)).toBe(true);
        expect(len(`${body}\n\nWhy it changed: ${ENRICHED_RATIONALE}`)).toBeLessThanOrEqual(BODY_MAX);
      }),
      { seed: 311, numRuns: 300 },
    );
  });
});

describe('enrichStubs', () => {
  it('supersedes exactly the distinct current stubs of the session; nothing else changes', () => {
    const stub = (
      projectId: string,
      session: string,
      source: 'hook_observation' | 'cli' = 'hook_observation',
    ) =>
      createRecord(
        { ...s.deps, projectId },
        {
          type: 'bugfix',
          title: `Error: x ${session}`,
          body: 'Command: make\nFirst error: x',
          source,
          sessionId: session,
        },
      ).id;
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 6 }), { maxLength: 12 }), (picks) => {
        s.db.prepare('DELETE FROM edges').run();
        s.db.transaction(() => s.db.prepare('DELETE FROM records').run())(); // counts: database/retirement.ts
        const mine = [stub('proj', 's1'), stub('proj', 's1')];
        const pool = [
          ...mine,
          stub('proj', 's2'), // another session
          stub('other', 's1'), // another project
          stub('proj', 's1', 'cli'), // not a stub
          '01ZZZZZZZZZZZZZZZZZZZZZZZZ', // unknown
          createRecord(s.deps, { type: 'decision', title: 'd', body: 'd', source: 'cli', sessionId: 's1' })
            .id,
        ];
        const before = s.db.prepare('SELECT * FROM records ORDER BY id').all() as ContextRecord[];
        const items = picks.map((i) => ({ stub_id: pool[i]!, title: '', cause: 'c', fix: 'f' }));
        const r = enrichStubs(s.deps, items, { sessionId: 's1' });
        const wanted = [...new Set(picks.map((i) => pool[i]!))].filter((id) => mine.includes(id));
        expect(r.enriched.map((e) => e.stub_id)).toEqual(wanted);
        const d = r.dropped;
        expect(r.enriched.length + d.invalid_stub + d.duplicate + d.too_long).toBe(items.length);
        for (const old of before) {
          const now = s.db.prepare('SELECT * FROM records WHERE id = ?').get(old.id) as ContextRecord;
          if (wanted.includes(old.id))
            expect(now.superseded_by).toBe(r.enriched.find((e) => e.stub_id === old.id)!.id);
          else expect(now).toEqual(old);
        }
      }),
      { seed: 912, numRuns: 60 },
    );
  });
});
