import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestExtraction } from '../../../../src/core/extraction/ingest.js';
import { KNOWN_LIMIT, knownRecords } from '../../../../src/core/extraction/known-records.js';
import { extractionMessage } from '../../../../src/core/extraction/prompt.js';
import { parseExtractionOutput } from '../../../../src/core/extraction/schema.js';
import type { Db } from '../../../../src/database/open.js';
import { insertRecord } from '../../../../src/database/records-repo.js';
import type { Confidence, ContextRecord, RecordType } from '../../../../src/shared/types.js';
import { listedRecords } from '../../../support/prompt-following-model.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Re-sightings reported by id (`reinforces`): CONTRACTS.md §confidence's counting — one per
 * session, inferred → reinforced at the threshold or at once on an explicit statement — and nothing
 * else: no other project's record, no superseded or keyed record, no explicit record ever changes.
 */

const PROJECT = 'proj-s';
let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeAll(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), PROJECT);
});
afterAll(() => {
  s.db.close();
  t.cleanup();
});

function put(
  db: Db,
  id: string,
  o: { project?: string; type?: RecordType; confidence?: Confidence; superseded?: boolean; at?: string },
): void {
  const at = o.at ?? '2026-11-01T00:00:00.000Z';
  insertRecord(db, {
    id,
    project_id: o.project ?? PROJECT,
    type: o.type ?? 'preference',
    title: `Record ${id}`,
    body: `Body ${id}.`,
    scope: o.project === '_global' ? 'global' : 'project',
    pinned: 0,
    confidence: o.confidence ?? 'inferred',
    reinforce_count: 0,
    valid_from: at,
    recorded_at: at,
    source: 'llm_extraction',
    session_id: null,
  });
  // retiring a record counts for the digest (database/retirement.ts): inside a transaction
  if (o.superseded)
    db.transaction(() => db.prepare('UPDATE records SET superseded_at = ? WHERE id = ?').run(at, id))();
}

const empty = {
  decisions: [],
  preferences: [],
  conventions: [],
  active_work: null,
  gotchas: [],
  flush_ok: false,
};

/** The records a sighting may reinforce, and the ones it must never touch. */
const REINFORCEABLE = ['A', 'G', 'D'] as const;
const UNTOUCHABLE = ['B', 'O', 'S', 'H'] as const;

function scene(): void {
  s.db.transaction(() => s.db.exec('DELETE FROM records; DELETE FROM edges;'))();
  put(s.db, 'A', {}); // own inferred preference
  put(s.db, 'G', { project: '_global' }); // global inferred preference
  put(s.db, 'D', { type: 'discovery' }); // a gotcha the model wrote
  put(s.db, 'B', { confidence: 'explicit' }); // stated: nothing to reinforce
  put(s.db, 'O', { project: 'proj-other' }); // another project's
  put(s.db, 'S', { superseded: true }); // history
  put(s.db, 'H', { type: 'handover' }); // keyed: replaced, never confirmed
}

describe('reinforces: sightings by id', () => {
  it('counts one sighting per session, promotes at the threshold or on an explicit one, touches nothing else', () => {
    const entry = fc.record({
      id: fc.constantFrom(...REINFORCEABLE, ...UNTOUCHABLE, 'nope'),
      confidence: fc.constantFrom<Confidence>('inferred', 'explicit'),
    });
    const call = fc.record({
      session: fc.constantFrom('s1', 's2', 's3', 's4'),
      reinforces: fc.array(entry, { maxLength: 4 }),
    });
    fc.assert(
      fc.property(
        fc.array(call, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        (calls, threshold) => {
          scene();
          const before = new Map(
            (s.db.prepare('SELECT * FROM records').all() as ContextRecord[]).map((r) => [r.id, r]),
          );
          // the reference model
          const sessions = new Map<string, Set<string>>();
          const state = new Map<string, { count: number; confidence: Confidence }>(
            REINFORCEABLE.map((id) => [id, { count: 0, confidence: 'inferred' }]),
          );
          for (const c of calls) {
            const parsed = parseExtractionOutput({ ...empty, reinforces: c.reinforces })!.output;
            const report = ingestExtraction({ ...s.deps, reinforceThreshold: threshold }, parsed, {
              sessionId: c.session,
              source: 'llm_extraction',
            });
            for (const e of c.reinforces) {
              const m = state.get(e.id);
              if (!m) continue;
              const seen = sessions.get(e.id) ?? new Set<string>();
              if (seen.has(c.session)) continue;
              seen.add(c.session);
              sessions.set(e.id, seen);
              m.count++;
              if (e.confidence === 'explicit' || 1 + m.count >= threshold) m.confidence = 'reinforced';
            }
            expect(report.created).toEqual([]);
            expect(report.dropped.invalid_reinforces).toBe(
              c.reinforces.filter((e) => !state.has(e.id) && e.id !== 'B').length,
            );
          }
          for (const [id, m] of state) {
            const r = s.db.prepare('SELECT * FROM records WHERE id = ?').get(id) as ContextRecord;
            expect({ id, count: r.reinforce_count, confidence: r.confidence }).toEqual({
              id,
              count: m.count,
              confidence: m.confidence,
            });
          }
          for (const id of UNTOUCHABLE) {
            expect(s.db.prepare('SELECT * FROM records WHERE id = ?').get(id)).toEqual(before.get(id));
          }
        },
      ),
      { seed: 3303, numRuns: 120 },
    );
  });

  it('the prompt lists records on probation first, so an old inferred one can still be reported', () => {
    scene();
    s.db.transaction(() => s.db.exec('DELETE FROM records'))();
    put(s.db, 'OLDPREF', { at: '2025-01-01T00:00:00.000Z' });
    for (let i = 0; i < 80; i++) {
      put(s.db, `DEC${String(i).padStart(3, '0')}`, {
        type: 'decision',
        confidence: 'explicit',
        at: `2026-0${1 + (i % 9)}-10T00:00:${String(i % 60).padStart(2, '0')}.000Z`,
      });
    }
    const known = knownRecords(s.deps);
    expect(known).toHaveLength(KNOWN_LIMIT);
    const listed = listedRecords(extractionMessage('Developer: hello', known));
    expect(listed).toHaveLength(KNOWN_LIMIT);
    expect(listed).toContainEqual({
      id: 'OLDPREF',
      type: 'preference',
      confidence: 'inferred',
      title: 'Record OLDPREF',
    });
    // explicit records are listed as before, with no confidence mark
    expect(listed.filter((r) => r.type === 'decision').every((r) => r.confidence === 'explicit')).toBe(true);
    expect(extractionMessage('x', known)).toContain('- DEC079 [decision] Record DEC079');
  });

  it('accepts a bare id as an inferred sighting and drops malformed entries alone', () => {
    const p = parseExtractionOutput({
      ...empty,
      reinforces: ['A', { id: 'G', confidence: 'explicit' }, { id: '' }, 7],
    })!;
    expect(p.output.reinforces).toEqual([
      { id: 'A', confidence: 'inferred' },
      { id: 'G', confidence: 'explicit' },
    ]);
    expect(p.invalid).toEqual({ reinforces: 2 });
    expect(parseExtractionOutput(empty)!.output.reinforces).toEqual([]);
  });
});
