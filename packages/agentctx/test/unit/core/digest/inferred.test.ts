import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composeDigest } from '../../../../src/core/digest/digest.js';
import type { Db } from '../../../../src/database/open.js';
import { insertRecord } from '../../../../src/database/records-repo.js';
import type { Confidence, RecordType } from '../../../../src/shared/types.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * CONTRACTS.md §stored-derived governs the SessionStart digest: an inferred record is a hypothesis
 * and stays out of it until reinforced (prompt-time injection may show it, worded as a hypothesis).
 * The one inferred record the digest may carry is the current handover, which CONTRACTS.md §digest
 * names as a section and which can never be reinforced (each session supersedes it); it is labelled
 * as an automatic, unconfirmed summary.
 */

const PROJECT = 'proj-inf';
const OTHER = 'proj-other';
const now = new Date('2026-11-30T12:00:00Z');

let t: ReturnType<typeof tempDir>;
let db: Db;
beforeAll(() => {
  t = tempDir();
  db = testStore(join(t.path, 'home'), PROJECT).db;
});
afterAll(() => {
  db.close();
  t.cleanup();
});

const TYPES: RecordType[] = [
  'decision',
  'convention',
  'preference',
  'discovery',
  'bugfix',
  'handover',
  'profile',
];
const CONFIDENCES: Confidence[] = ['explicit', 'inferred', 'reinforced'];

const recordArb = fc.record({
  type: fc.constantFrom(...TYPES),
  confidence: fc.constantFrom(...CONFIDENCES),
  where: fc.constantFrom(PROJECT, PROJECT, '_global', OTHER),
  pinned: fc.boolean(),
  superseded: fc.boolean(),
  ageDays: fc.integer({ min: 0, max: 400 }),
  words: fc.integer({ min: 1, max: 6 }),
});

type Spec = typeof recordArb extends fc.Arbitrary<infer T> ? T : never;

interface Made {
  id: string;
  type: RecordType;
  confidence: Confidence;
  project: string;
  current: boolean;
  title: string;
}

/** Unique, searchable titles: "zq<n>x" cannot occur by accident in the digest's own words. */
function fill(specs: Spec[]): Made[] {
  db.transaction(() => db.exec('DELETE FROM records'))(); // (deleting counts: database/retirement.ts)
  const made: Made[] = [];
  // the store holds one current handover per project (a unique index): later ones are history,
  // written (and closed) before the current records so that no two are ever current together
  const withHandover = new Set<string>();
  const plan = specs.map((spec, i) => {
    const s = {
      ...spec,
      superseded: spec.superseded || (spec.type === 'handover' && withHandover.has(spec.where)),
    };
    if (s.type === 'handover' && !s.superseded) withHandover.add(s.where);
    return { s, i };
  });
  plan.sort((a, b) => Number(b.s.superseded) - Number(a.s.superseded));
  for (const { s, i } of plan) {
    const id = `01JINF${String(i).padStart(20, '0')}`;
    const scope = s.where === '_global' ? 'global' : 'project';
    const title = `${s.type === 'profile' ? 'profile: ' : ''}Fact zq${i}x ${'lorem '.repeat(s.words).trim()}`;
    const at = new Date(now.getTime() - s.ageDays * 86_400_000).toISOString();
    insertRecord(db, {
      id,
      project_id: s.where,
      type: s.type,
      title,
      body: `Body of zq${i}x.`,
      scope,
      pinned: s.pinned ? 1 : 0,
      confidence: s.confidence,
      reinforce_count: s.confidence === 'reinforced' ? 2 : 0,
      valid_from: at,
      recorded_at: at,
      source: 'llm_extraction',
      session_id: null,
    });
    if (s.superseded)
      db.transaction(() => db.prepare('UPDATE records SET superseded_at = ? WHERE id = ?').run(at, id))();
    made.push({
      id,
      type: s.type,
      confidence: s.confidence,
      project: s.where,
      current: !s.superseded,
      title,
    });
  }
  return made;
}

/** The current handover the digest shows: the newest current handover of the project. */
function currentHandover(): string | undefined {
  return (
    db
      .prepare(
        `SELECT id FROM records WHERE project_id = ? AND type = 'handover' AND superseded_at IS NULL
         ORDER BY valid_from DESC, id DESC LIMIT 1`,
      )
      .get(PROJECT) as { id: string } | undefined
  )?.id;
}

const marker = (m: Made) => m.title.match(/zq\d+x/)![0];

describe('the SessionStart digest and inferred records (CONTRACTS.md §stored-derived, §confidence)', () => {
  it('never shows an inferred fact, whatever the mix of records; the handover is the one labelled exception', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 40 }), (specs) => {
        const made = fill(specs);
        const d = composeDigest(
          db,
          { id: PROJECT, name: 'inf' },
          { now, drift: { missing: 0, contradicted: 0 } },
        );
        const handover = currentHandover();
        for (const m of made) {
          if (m.confidence !== 'inferred') continue;
          if (m.id === handover) {
            // shown only as an automatic summary, marked unconfirmed
            if (d.text.includes(marker(m)))
              expect(d.text).toMatch(/summarised automatically\): \(unconfirmed\)/);
            continue;
          }
          expect(d.ids).not.toContain(m.id);
          expect(d.text).not.toContain(marker(m));
        }
        // no other line is marked unconfirmed: the label belongs to the handover alone
        const unconfirmed = d.text
          .split('\n')
          .filter((l) => l.includes('(unconfirmed)') && !l.startsWith('What '));
        for (const l of unconfirmed) expect(l).toMatch(/^Task \(/);
      }),
      { seed: 20260714, numRuns: 150 },
    );
  });

  it('still shows every confirmed fact its sections hold, when the budget allows', () => {
    fc.assert(
      fc.property(fc.array(recordArb, { minLength: 1, maxLength: 8 }), (specs) => {
        const made = fill(specs);
        const d = composeDigest(
          db,
          { id: PROJECT, name: 'inf' },
          { now, drift: { missing: 0, contradicted: 0 } },
        );
        for (const m of made) {
          if (!m.current || m.confidence === 'inferred') continue;
          const shown =
            (m.project === PROJECT && ['decision', 'convention', 'preference', 'profile'].includes(m.type)) ||
            (m.project === '_global' && m.type === 'preference') ||
            m.id === currentHandover();
          if (shown) expect(d.ids).toContain(m.id);
          else if (m.type !== 'handover') expect(d.ids).not.toContain(m.id);
        }
        // a record of another project never appears
        for (const m of made) if (m.project === OTHER) expect(d.text).not.toContain(marker(m));
      }),
      { seed: 7140, numRuns: 150 },
    );
  });

  it('a reinforced record enters the digest that kept it out while inferred', () => {
    const [m] = fill([
      {
        type: 'decision',
        confidence: 'inferred',
        where: PROJECT,
        pinned: true,
        superseded: false,
        ageDays: 1,
        words: 2,
      },
    ]);
    const compose = () => composeDigest(db, { id: PROJECT, name: 'inf' }, { now });
    expect(compose().ids).not.toContain(m!.id);
    db.prepare("UPDATE records SET confidence = 'reinforced', reinforce_count = 2 WHERE id = ?").run(m!.id);
    const d = compose();
    expect(d.ids).toContain(m!.id);
    expect(d.text).toContain(`- ${m!.title}`);
    expect(d.text).not.toContain('(unconfirmed)');
  });
});
