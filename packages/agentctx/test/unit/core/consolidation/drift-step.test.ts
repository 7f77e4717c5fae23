import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDriftStep } from '../../../../src/core/consolidation/drift-step.js';
import type { RunState } from '../../../../src/core/consolidation/plan.js';
import { consolidate } from '../../../../src/core/consolidation/run.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { anyOp, apply, PROJECT, SAID, setup as setupIn } from '../../../support/drift-model.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * The drift step reuses the last result only when a full scan would find the same (issue 20):
 * whatever comes between two runs — records added, superseded, retired, deleted, rewritten in
 * place, pinned or confirmed; lines added to or removed from CLAUDE.md, `.claude/CLAUDE.md` or a
 * file CLAUDE.md imports; files deleted; weeks passing, so superseded records leave the 90-day
 * window, or the clock set back — the counts and the stored drift scores equal those of a full scan from scratch.
 */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const setup = (name: string) => setupIn(join(t.path, name));

describe('the drift step reuses its last result', () => {
  it('only when a full scan from scratch finds the same counts and scores', () => {
    const seen = { reused: 0, scanned: 0 };
    let runs = 0;
    fc.assert(
      // each write followed by a run half the time: a run, one change, a run is common
      fc.property(
        fc.array(fc.tuple(anyOp, fc.boolean()), { minLength: 5, maxLength: 30, size: 'max' }),
        (ops) => {
          const s = setup(`p${runs++}`);
          const state: RunState = {};
          s.lines[0] = [`- ${SAID[0]![0]}: ${SAID[0]![1]}`];
          s.write(0);
          try {
            for (const [op, run] of [...ops, [{ op: 'run' as const }, false] as const]) {
              apply(s, op, state, seen);
              if (run) apply(s, { op: 'run' }, state, seen);
            }
          } finally {
            s.db.close();
          }
        },
      ),
      { seed: 20_2026, numRuns: 35 },
    );
    // both paths were taken many times
    expect(seen.reused).toBeGreaterThan(30);
    expect(seen.scanned).toBeGreaterThan(30);
  });

  it('with nothing written, as the clock moves on or back by weeks, equals a full scan', () => {
    const seen = { reused: 0, scanned: 0 };
    let runs = 0;
    fc.assert(
      fc.property(
        fc.array(anyOp, { minLength: 5, maxLength: 25, size: 'max' }),
        fc.array(fc.integer({ min: -100, max: 100 }), { minLength: 1, maxLength: 8 }),
        (ops, days) => {
          const s = setup(`w${runs++}`);
          const state: RunState = {};
          try {
            for (const op of [...ops, { op: 'run' as const }]) apply(s, op, state, seen);
            for (const d of days) {
              apply(s, { op: 'age', days: d }, state, seen);
              apply(s, { op: 'run' }, state, seen);
            }
          } finally {
            s.db.close();
          }
        },
      ),
      { seed: 20_2027, numRuns: 40 },
    );
    expect(seen.reused).toBeGreaterThan(20);
  });

  it('scans again when a superseded record leaves the 90-day window, or the clock goes back', () => {
    const s = setup('window');
    const state: RunState = {};
    const [t0, b0] = SAID[0]!;
    const old = createRecord(s.deps, {
      type: 'decision',
      title: t0,
      body: b0,
      confidence: 'explicit',
      source: 'mcp_tool',
    });
    const [t1, b1] = SAID[1]!;
    createRecord(s.deps, {
      type: 'decision',
      title: t1,
      body: b1,
      confidence: 'explicit',
      source: 'mcp_tool',
      supersedes: old.id,
    });
    s.lines[0] = [`- ${t0}: ${b0}`];
    s.write(0);
    const project = { id: PROJECT, root: s.root };
    const step = () => runDriftStep({ db: s.db, project, now: s.now(), state });
    expect(step()).toEqual({ counts: { missing: 1, contradicted: 1 }, reused: false });
    s.tick(89 * 86_400_000);
    expect(step()).toEqual({ counts: { missing: 1, contradicted: 1 }, reused: true });
    s.tick(2 * 86_400_000); // the superseded record is 91 days old: CLAUDE.md no longer contradicts it
    expect(step()).toEqual({ counts: { missing: 1, contradicted: 0 }, reused: false });
    expect(step()).toEqual({ counts: { missing: 1, contradicted: 0 }, reused: true });
    s.tick(-10 * 86_400_000); // a clock set back: the record is in the window again
    expect(step()).toEqual({ counts: { missing: 1, contradicted: 1 }, reused: false });
    s.db.close();
  });

  it('a consolidation rerun reuses it; an edit of CLAUDE.md or a new record makes the next run scan', () => {
    const s = setup('run');
    const run = () =>
      consolidate({
        db: s.db,
        clock: s.now,
        newId: s.newId,
        project: { id: PROJECT, name: 'd', root: s.root },
        digestsDir: join(s.root, 'digests'),
      });
    for (const [title, body] of SAID.slice(0, 4))
      createRecord(s.deps, {
        type: 'decision',
        title,
        body,
        confidence: 'explicit',
        source: 'mcp_tool',
      });
    s.lines[0] = [`- ${SAID[0]![0]}: ${SAID[0]![1]}`];
    s.write(0);
    const first = run();
    expect(first.reused).toBeUndefined();
    expect(first.drift.missing).toBe(3);
    expect(run()).toMatchObject({ reused: ['drift'], drift: first.drift });
    s.lines[0].push(`- ${SAID[2]![0]}: ${SAID[2]![1]}`);
    s.write(0);
    expect(run()).toMatchObject({ drift: { missing: 2 } });
    expect(run().reused).toEqual(['drift']);
    createRecord(s.deps, {
      type: 'decision',
      title: SAID[4]![0],
      body: SAID[4]![1],
      confidence: 'explicit',
      source: 'mcp_tool',
    });
    const after = run();
    expect(after.reused).toBeUndefined();
    expect(after.drift.missing).toBe(3);
    s.db.close();
  });
});
