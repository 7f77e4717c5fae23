import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../src/core/records/records.js';
import { search } from '../../../src/core/retrieval/search.js';
import { chainVersionAt, listRecordsAt } from '../../../src/database/as-of.js';
import { parseTimePoint } from '../../../src/shared/time-point.js';
import { testStore } from '../../support/store.js';
import { tempDir } from '../../support/tmp.js';

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});
function store() {
  const d = tempDir('agentctx-asof-');
  dirs.push(d);
  return testStore(d.path, 'p-asof');
}
const iso = (ms: number) => new Date(ms).toISOString();
const T0 = Date.parse('2026-01-01T00:00:00Z');
const HOUR = 3_600_000;

describe('history queries (as_of, known_at)', () => {
  it('a chain has exactly the version that was current at each time', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 500 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.integer({ min: -10, max: 3500 }), { minLength: 1, maxLength: 10 }),
        (gaps, probes) => {
          const s = store();
          const times: number[] = [];
          let t = T0;
          let id = '';
          gaps.forEach((g, i) => {
            t += g * HOUR;
            times.push(t);
            s.setNow(iso(t));
            id =
              i === 0
                ? createRecord(s.deps, {
                    type: 'decision',
                    title: 'Cache TTL',
                    body: 'TTL v0',
                    source: 'cli',
                  }).id
                : supersedeRecord(s.deps, id, { body: `TTL v${i}`, rationale: 'tuned', source: 'cli' })
                    .new_id;
          });
          for (const p of probes) {
            const at = iso(T0 + p * HOUR);
            const expected = times.filter((x) => x <= T0 + p * HOUR).length - 1;
            const got = chainVersionAt(s.db, id, { asOf: at });
            if (expected < 0) expect(got).toBeUndefined();
            else expect(got?.body.startsWith(`TTL v${expected}`)).toBe(true);
            // exactly one version of the chain valid then (or none before it began)
            const all = listRecordsAt(s.db, { namespaces: ['p-asof'], time: { asOf: at } });
            expect(all.length).toBe(expected < 0 ? 0 : 1);
          }
          s.db.close();
        },
      ),
      { seed: 31, numRuns: 25 },
    );
  });

  it('known_at leaves out what was recorded later, even when it was true earlier (an import)', () => {
    const s = store();
    s.setNow('2026-02-01T00:00:00Z');
    const old = createRecord(s.deps, {
      type: 'decision',
      title: 'Queue',
      body: 'Use RabbitMQ',
      source: 'cli',
    });
    // a teammate's change made on Feb 10, imported here on Feb 20
    s.setNow('2026-02-20T00:00:00Z');
    createRecord(s.deps, {
      type: 'decision',
      title: 'Queue',
      body: 'Use Kafka',
      source: 'import',
      validFrom: '2026-02-10T00:00:00.000Z',
      supersedes: old.id,
    });
    const at = (asOf: string, knownAt?: string) =>
      chainVersionAt(s.db, old.id, {
        asOf: parseTimePoint(asOf)!,
        knownAt: knownAt && parseTimePoint(knownAt)!,
      })?.body;
    expect(at('2026-02-05')).toBe('Use RabbitMQ');
    expect(at('2026-02-15')).toBe('Use Kafka'); // true since Feb 10
    expect(at('2026-02-15', '2026-02-15')).toBe('Use RabbitMQ'); // not known here until Feb 20
    expect(at('2026-02-25', '2026-02-25')).toBe('Use Kafka');
    expect(at('2026-01-15')).toBeUndefined();
  });

  it('search --as-of finds the superseded fact and not its successor', () => {
    const s = store();
    s.setNow('2026-03-01T00:00:00Z');
    const r = createRecord(s.deps, {
      type: 'decision',
      title: 'Session store',
      body: 'Sessions live in Redis',
      source: 'cli',
    });
    s.setNow('2026-04-01T00:00:00Z');
    supersedeRecord(s.deps, r.id, {
      body: 'Sessions live in Postgres now',
      rationale: 'one store',
      source: 'cli',
    });
    const q = (time?: { asOf: string }) =>
      search(s.db, {
        projectId: 'p-asof',
        query: 'sessions live',
        time,
        now: new Date('2026-05-01'),
      }).hits.map((h) => h.record.body);
    expect(q()).toEqual([expect.stringContaining('Postgres')]);
    expect(q({ asOf: parseTimePoint('2026-03-15')! })).toEqual(['Sessions live in Redis']);
    expect(q({ asOf: parseTimePoint('2026-02-15')! })).toEqual([]);
  });

  it('reads dates and date-times, and refuses anything else', () => {
    expect(parseTimePoint('2026-05-01')).toBe('2026-05-01T23:59:59.999Z');
    expect(parseTimePoint('2026-05-01T14:30')).toBe('2026-05-01T14:30:00.000Z');
    expect(parseTimePoint('2026-05-01T14:30+02:00')).toBe('2026-05-01T12:30:00.000Z');
    for (const bad of ['2026-02-30', 'yesterday', '', '05/01/2026', '2026-13-01', '2026-05-01T25:00'])
      expect(parseTimePoint(bad)).toBeNull();
  });
});
