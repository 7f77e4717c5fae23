import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyCapture } from '../../../../src/core/capture/observe.js';
import { type Capture, prepareCapture } from '../../../../src/core/capture/prepare.js';
import { applySpooledCaptures, spoolCapture } from '../../../../src/core/capture/spool.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * The capture spool (core/capture/spool.ts): captures a hook could not write at once, applied
 * later by another writer. Whatever was spooled and whenever it is applied, the store's current
 * state ends as if every capture had been written when it happened.
 */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('agentctx-spool-');
});
afterEach(() => t.cleanup());

const ROOT = '/repo/shop';
const base = Date.UTC(2026, 10, 1, 9);

/** A tool call's capture: a failing command, a test verdict (pass or fail) or an edited file. */
const callArb = fc.oneof(
  fc.record({ kind: fc.constant('error' as const), n: fc.integer({ min: 0, max: 2 }) }),
  // one test command, so verdicts of it spooled and written live interleave often
  fc.record({ kind: fc.constant('test' as const), pass: fc.boolean(), n: fc.constant(0) }),
  fc.record({ kind: fc.constant('file' as const), n: fc.integer({ min: 0, max: 3 }) }),
);
type Call = typeof callArb extends fc.Arbitrary<infer T> ? T : never;

function capture(c: Call): Capture {
  const call =
    c.kind === 'file'
      ? { toolName: 'Edit', toolInput: { file_path: `src/f${c.n}.ts` }, toolResponse: {}, cwd: ROOT }
      : c.kind === 'error'
        ? {
            toolName: 'Bash',
            toolInput: { command: `node run${c.n}.js` },
            toolResponse: { stdout: '', stderr: `TypeError: case ${c.n} failed`, interrupted: false },
            cwd: ROOT,
          }
        : {
            toolName: 'Bash',
            toolInput: { command: `npx vitest run suite${c.n}` },
            toolResponse: {
              stdout: c.pass ? ' Tests  3 passed (3)' : ' Tests  1 failed | 2 passed (3)',
              stderr: '',
              interrupted: false,
            },
            cwd: ROOT,
          };
  const out = prepareCapture(call, ROOT);
  if (!out) throw new Error(`no capture for ${JSON.stringify(c)}`);
  return out;
}

function deps(db: Db, newId: () => string, at: Date) {
  return { db, clock: () => at, newId, projectId: 'p1', projectRoot: ROOT, sessionId: 's1' };
}

/** What the store says now: current records and file nodes (ids and dates left out). */
function current(db: Db): unknown {
  return {
    records: db
      .prepare('SELECT type, title, body FROM records WHERE superseded_at IS NULL ORDER BY type, title, body')
      .all(),
    files: db.prepare("SELECT name FROM nodes WHERE kind = 'file' ORDER BY name").all(),
  };
}

describe('the capture spool', () => {
  it('ends where writing every capture at once would have ended, whatever was spooled and whenever it is applied', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(callArb, fc.boolean(), fc.boolean()), { minLength: 2, maxLength: 10 }),
        (steps) => {
          const run = `${Math.random().toString(36).slice(2)}`;
          const live = openDb(join(t.path, `live-${run}.db`));
          const mixed = openDb(join(t.path, `mixed-${run}.db`));
          const spool = join(t.path, `spool-${run}`);
          const idA = monotonicFactory();
          const idB = monotonicFactory();
          steps.forEach(([c, spooled, drainAfter], i) => {
            const at = new Date(base + i * 60_000);
            const cap = capture(c);
            applyCapture(deps(live, idA, at), cap);
            if (spooled)
              spoolCapture(spool, {
                at: at.toISOString(),
                projectId: 'p1',
                projectRoot: ROOT,
                sessionId: 's1',
                capture: cap,
              });
            else applyCapture(deps(mixed, idB, at), cap);
            if (drainAfter) applySpooledCaptures({ db: mixed, newId: idB, dir: spool });
          });
          const r = applySpooledCaptures({ db: mixed, newId: idB, dir: spool });
          expect(r.left).toBe(0);
          expect(current(mixed)).toEqual(current(live));
          let left: string[] = [];
          try {
            left = readdirSync(spool);
          } catch {
            // nothing was ever spooled
          }
          expect(left).toEqual([]);
          live.close();
          mixed.close();
        },
      ),
      { seed: 20_261_203, numRuns: 60 },
    );
  });

  it('applies again a capture whose applier died holding its claim, and sets aside a file that is not one', () => {
    const db = openDb(join(t.path, 'a.db'));
    const spool = join(t.path, 'spool');
    const at = new Date(base);
    const name = spoolCapture(spool, {
      at: at.toISOString(),
      projectId: 'p1',
      projectRoot: ROOT,
      sessionId: 's1',
      capture: capture({ kind: 'error', n: 1 }),
    });
    // a claim by a process that no longer runs (pid 2^22 + 1 is above Linux's pid_max default)
    renameSync(join(spool, name), join(spool, `${name}.claim-4194305`));
    writeFileSync(join(spool, '00000000000001-1-0000-deadbeef.json'), '{"v":1,"at":"not a date"}\n');
    const r = applySpooledCaptures({ db, newId: monotonicFactory(), dir: spool });
    expect(r).toEqual({ applied: 1, left: 0, setAside: 1 });
    expect(readdirSync(spool)).toEqual(['00000000000001-1-0000-deadbeef.json.bad']);
    const rows = db.prepare("SELECT title, recorded_at FROM records WHERE type = 'bugfix'").all();
    expect(rows).toEqual([{ title: 'Error: TypeError: case 1 failed', recorded_at: at.toISOString() }]);
    db.close();
  });
});
