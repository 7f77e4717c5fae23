import { join } from 'node:path';
import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  currentDigest,
  isCurrent,
  settledStamp,
  writeStampedDigest,
} from '../../../../src/core/digest/current-digest.js';
import { composeDigest } from '../../../../src/core/digest/digest.js';
import { readDigest, writeDigest } from '../../../../src/core/digest/digest-file.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import {
  equaliseStaleCounters,
  readRetirementCounters,
  retirementScopeOf,
} from '../../../../src/database/retirement.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * CONTRACTS.md §inv-3 for the digest file under every interleaving of writers (commit, rollback,
 * killed mid-transaction), composers and SessionStart readers, each split at the points where another
 * process can run in between. Real SQLite connections to one file, the real counters, the real
 * digest files; only the scheduling is generated. After every reader's decision the digest it
 * accepted as current must show no record the store has retired.
 */

const PROJECT = { id: 'p', name: 'shop' };
const NOW = new Date('2026-12-01T12:00:00Z');

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('agentctx-interleave-');
});
afterEach(() => t.cleanup());

interface Actor {
  steps: (() => void)[];
  pc: number;
  enabled: () => boolean;
  /** Between its first step and its last (a writer holding the write lock or in flight). */
  busy: () => boolean;
}

type Outcome = 'commit' | 'rollback' | 'kill';

function world(dir: string, records: number) {
  const path = join(dir, 'agentctx.db');
  const digests = join(dir, 'digests');
  const seedDb = openDb(path);
  const newId = monotonicFactory();
  const ids = Array.from({ length: records }, (_, i) =>
    createRecord(
      { db: seedDb, clock: () => NOW, newId, projectId: PROJECT.id },
      {
        type: 'decision',
        title: `Decision number ${i}`,
        body: `Body of decision ${i}.`,
        source: 'cli',
        confidence: 'explicit',
      },
    ),
  ).map((r) => r.id);
  const compose = (db: Db) => () => composeDigest(db, PROJECT, { now: NOW });
  writeStampedDigest(seedDb, digests, PROJECT.id, compose(seedDb));
  return { path, digests, ids, seedDb, compose };
}

function runSchedule(
  w: ReturnType<typeof world>,
  plan: {
    writers: { target: number; outcome: Outcome }[];
    composers: number;
    readers: number;
    equalise: boolean;
  },
  schedule: number[],
): string[] {
  const violations: string[] = [];
  const checker = w.seedDb;
  const open: Db[] = [];
  const conn = () => {
    const db = openDb(w.path);
    open.push(db);
    return db;
  };
  const actors: Actor[] = [];
  let lockHolder: Actor | null = null;
  const inFlight = new Set<Actor>();

  for (const wr of plan.writers) {
    const db = conn();
    const scope = retirementScopeOf(db)!;
    const id = w.ids[wr.target % w.ids.length]!;
    let entered = false;
    const a: Actor = {
      pc: 0,
      enabled: () => a.pc !== 0 || lockHolder === null,
      busy: () => a.pc > 0 && a.pc < a.steps.length,
      steps: [
        () => {
          entered = scope.enter(); // db.transaction's wrapper, then BEGIN IMMEDIATE
          db.exec('BEGIN IMMEDIATE');
          lockHolder = a;
          inFlight.add(a);
        },
        () => {
          db.prepare('UPDATE records SET superseded_at = ? WHERE id = ? AND superseded_at IS NULL').run(
            NOW.toISOString(),
            id,
          );
        },
        ...(wr.outcome === 'kill'
          ? [
              () => {
                db.close(); // the process died: SQLite rolls back, `done` is never appended
                lockHolder = null;
              },
            ]
          : [
              () => {
                db.exec(wr.outcome === 'commit' ? 'COMMIT' : 'ROLLBACK');
                lockHolder = null;
              },
              () => {
                scope.leave(entered);
                inFlight.delete(a);
              },
            ]),
      ],
    };
    actors.push(a);
  }

  for (let i = 0; i < plan.composers; i++) {
    const db = conn();
    let stamp: number | null = null;
    let composed: ReturnType<ReturnType<typeof w.compose>> | null = null;
    const a: Actor = {
      pc: 0,
      enabled: () => true,
      busy: () => false,
      steps: [
        () => {
          stamp = settledStamp(w.path);
        },
        () => {
          if (stamp !== null) composed = db.transaction(w.compose(db))();
        },
        () => {
          if (stamp !== null && composed)
            writeDigest(w.digests, PROJECT.id, { ...composed, retire_stamp: stamp });
        },
      ],
    };
    actors.push(a);
  }

  for (let i = 0; i < plan.readers; i++) {
    let seen: ReturnType<typeof readDigest> = null;
    const a: Actor = {
      pc: 0,
      enabled: () => true,
      busy: () => false,
      steps: [
        () => {
          seen = readDigest(w.digests, PROJECT.id);
        },
        () => {
          if (!seen || !isCurrent(seen, readRetirementCounters(w.path))) return;
          for (const id of seen.ids) {
            const row = checker.prepare('SELECT superseded_at FROM records WHERE id = ?').get(id) as
              | { superseded_at: string | null }
              | undefined;
            if (!row || row.superseded_at !== null)
              violations.push(`reader accepted a digest showing retired ${id}`);
          }
        },
      ],
    };
    actors.push(a);
  }

  if (plan.equalise) {
    // consolidation's repair, run only once no writer is in flight ("no write takes 2 minutes")
    const a: Actor = {
      pc: 0,
      enabled: () => [...inFlight].every((x) => !x.busy()),
      busy: () => false,
      steps: [() => equaliseStaleCounters(w.path, Date.now() + 1000, 0)],
    };
    actors.push(a);
  }

  let k = 0;
  for (;;) {
    const ready = actors.filter((a) => a.pc < a.steps.length && a.enabled());
    if (ready.length === 0) break;
    const a = ready[(schedule[k++] ?? 0) % ready.length]!;
    a.steps[a.pc++]!();
  }
  for (const db of open) if (db.open) db.close();
  return violations;
}

describe('the digest and the retirement counters under interleavings', () => {
  it('no reader ever accepts a digest showing a retired record; a quiet store gets a current digest again', () => {
    fc.assert(
      fc.property(
        fc.record({
          writers: fc.array(
            fc.record({
              target: fc.nat(5),
              outcome: fc.constantFrom<Outcome>('commit', 'commit', 'rollback', 'kill'),
            }),
            { minLength: 1, maxLength: 4 },
          ),
          composers: fc.integer({ min: 1, max: 3 }),
          readers: fc.integer({ min: 1, max: 4 }),
          equalise: fc.boolean(),
        }),
        fc.array(fc.nat(), { minLength: 10, maxLength: 60 }),
        (plan, schedule) => {
          const dir = join(t.path, `run-${Math.random().toString(36).slice(2)}`);
          const w = world(dir, 6);
          try {
            expect(runSchedule(w, plan, schedule)).toEqual([]);
            // liveness: with nothing in flight (a killed writer's mismatch repaired), composing
            // gives a digest every reader takes as current, showing only current records ("now"
            // a second ahead: file times are finer than Date.now())
            equaliseStaleCounters(w.path, Date.now() + 1000, 0);
            const written = writeStampedDigest(w.seedDb, w.digests, PROJECT.id, w.compose(w.seedDb), {
              attempts: 1,
            });
            expect(written.digest).not.toBeNull();
            const got = currentDigest({
              dir: w.digests,
              dbPath: w.path,
              project: PROJECT,
              now: NOW,
              store: () => {
                throw new Error('a current digest is read without opening the store');
              },
            });
            expect(got?.ids).toEqual(w.compose(w.seedDb)().ids);
          } finally {
            w.seedDb.close();
          }
        },
      ),
      { seed: 20261203, numRuns: 50 },
    );
  });
});

describe('what the counters watch', () => {
  it('retiring any record a digest can show moves them; a discovery or bug fix does not', () => {
    const db = openDb(join(t.path, 'agentctx.db'));
    try {
      const newId = monotonicFactory();
      const deps = (projectId: string) => ({ db, clock: () => NOW, newId, projectId });
      const made = [
        ['decision', 'project'],
        ['convention', 'project'],
        ['handover', 'project'],
        ['profile', 'project'],
        ['preference', 'global'],
        ['discovery', 'project'],
        ['bugfix', 'project'],
      ].map(([type, scope], i) =>
        createRecord(deps(PROJECT.id), {
          type,
          title: `Record ${i} of type ${type}`,
          body: `What record ${i} says.`,
          scope,
          source: 'cli',
          confidence: 'explicit',
        }),
      );
      const shown = composeDigest(db, PROJECT, { now: NOW }).ids;
      const retire = (id: string) =>
        db.transaction(() =>
          db.prepare('UPDATE records SET superseded_at = ? WHERE id = ?').run(NOW.toISOString(), id),
        )();
      for (const r of made) {
        const before = readRetirementCounters(db.name).begun;
        retire(r.id);
        const moved = readRetirementCounters(db.name).begun - before;
        if (shown.includes(r.id)) expect(moved, `${r.type} is in the digest`).toBe(1);
        if (r.type === 'discovery' || r.type === 'bugfix') expect(moved).toBe(0);
      }
      // every type the digest showed was watched
      expect(new Set(made.filter((r) => shown.includes(r.id)).map((r) => r.type))).toEqual(
        new Set(['decision', 'convention', 'handover', 'profile', 'preference']),
      );
    } finally {
      db.close();
    }
  });
});
