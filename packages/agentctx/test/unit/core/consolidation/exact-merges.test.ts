import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyMerge } from '../../../../src/core/consolidation/apply.js';
import { planExactMerges } from '../../../../src/core/consolidation/duplicates.js';
import { contentKey, planKeyedMerges } from '../../../../src/core/consolidation/exact-merges.js';
import { dupInputs } from '../../../../src/core/consolidation/inputs.js';
import { consolidate } from '../../../../src/core/consolidation/run.js';
import { createRecord, type RecordsDeps } from '../../../../src/core/records/records.js';
import { redactorFingerprint } from '../../../../src/core/redaction/fingerprint.js';
import { redactorFor } from '../../../../src/core/redaction/redact.js';
import { scrubStore } from '../../../../src/core/redaction/scrub.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import type { Confidence } from '../../../../src/shared/types.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Exact duplicates from stored content keys (issue 20): whatever sequence of writes comes
 * between two runs — new records, copies that differ only in case, punctuation or width, edits
 * through supersession, retirements, deletions, rewrites in place and the secret scrub — the
 * merges planned from the keys are the merges `planExactMerges` plans over every current record,
 * and no record keeps a key that is not the key of its text.
 */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const PROJECT = 'proj-k';
const NS = [PROJECT, '_global'];
const TYPES = ['decision', 'convention', 'discovery', 'handover'] as const;
const TITLES = [
  'Use Redis for sessions',
  'use redis, for sessions!',
  'USE  REDIS FOR SESSIONS',
  'Retry webhooks',
];
const BODIES = [
  'Cache sessions in Redis.',
  'cache sessions — in redis',
  'Ｃａｃｈｅ sessions in Redis', // full width: NFKC folds it
  'Key zqinternal-111111 rotated monthly.',
  'Key zqinternal-222222 rotated monthly.',
  'Retry with backoff.',
];
const CONFIDENCE: Confidence[] = ['inferred', 'explicit', 'reinforced'];
const PATTERN = 'zqinternal-[0-9]{6}';

type Op =
  | { op: 'add'; type: number; title: number; body: number; global: boolean; conf: number; pinned: boolean }
  | { op: 'copy'; i: number; upper: boolean }
  | { op: 'supersede'; i: number; title: number; body: number }
  | { op: 'retire'; i: number }
  | { op: 'delete'; i: number }
  | { op: 'rewrite'; i: number; title: number; body: number; type: number }
  | { op: 'scrub' | 'clearKeys' }
  | { op: 'run' };

const ix = (n: number) => fc.nat({ max: n - 1 });
const anyOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('add' as const),
      type: ix(TYPES.length),
      title: ix(TITLES.length),
      body: ix(BODIES.length),
      global: fc.boolean(),
      conf: ix(3),
      pinned: fc.boolean(),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('copy' as const), i: fc.nat(), upper: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('supersede' as const),
      i: fc.nat(),
      title: ix(TITLES.length),
      body: ix(BODIES.length),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('retire' as const), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('delete' as const), i: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('rewrite' as const),
      i: fc.nat(),
      title: ix(TITLES.length),
      body: ix(BODIES.length),
      type: ix(TYPES.length),
    }),
  },
  { weight: 1, arbitrary: fc.constant({ op: 'scrub' as const }) },
  // the keys are derived (CONTRACTS.md §stored-derived): cleared, they are computed again
  { weight: 1, arbitrary: fc.constant({ op: 'clearKeys' as const }) },
  { weight: 3, arbitrary: fc.constant({ op: 'run' as const }) },
);

function setup(name: string) {
  const db = openDb(join(t.path, `${name}.db`));
  let n = 0;
  let clock = Date.parse('2026-11-01T00:00:00Z');
  const newId = () => `01K${String(++n).padStart(23, '0')}`;
  const deps: RecordsDeps = { db, clock: () => new Date(clock), newId, projectId: PROJECT };
  return { db, deps, newId, tick: () => (clock += 60_000), now: () => new Date(clock) };
}

const current = (db: Db) =>
  db.prepare('SELECT * FROM records WHERE superseded_at IS NULL ORDER BY id').all() as {
    id: string;
    project_id: string;
    type: string;
    title: string;
    body: string;
  }[];

/** Every stored key is the key of the text beside it. */
function keysFresh(db: Db): void {
  const rows = db
    .prepare('SELECT id, type, title, body, content_key FROM records WHERE content_key IS NOT NULL')
    .all() as { id: string; type: string; title: string; body: string; content_key: string }[];
  for (const r of rows) expect(r.content_key, r.id).toBe(contentKey(r.type, r.title, r.body));
}

function apply(s: ReturnType<typeof setup>, op: Op, scrubs: { n: number }): void {
  const { db, deps } = s;
  const cur = current(db);
  const pick = (i: number) => cur[i % cur.length];
  s.tick();
  switch (op.op) {
    case 'add':
      createRecord(deps, {
        type: TYPES[op.type],
        title: TITLES[op.title],
        body: BODIES[op.body],
        scope: op.global && TYPES[op.type] !== 'handover' ? 'global' : 'project',
        confidence: CONFIDENCE[op.conf],
        pinned: op.pinned,
        source: 'mcp_tool',
      });
      return;
    case 'copy': {
      const r = pick(op.i);
      if (!r) return;
      createRecord(deps, {
        type: r.type,
        title: op.upper ? `${r.title.toUpperCase()}.` : r.title,
        body: op.upper ? ` ${r.body.toLowerCase()}!` : r.body,
        scope: r.project_id === PROJECT ? 'project' : 'global',
        source: 'mcp_tool',
      });
      return;
    }
    case 'supersede': {
      const r = pick(op.i);
      if (!r) return;
      const scope = r.project_id === PROJECT ? 'project' : 'global';
      createRecord(deps, {
        type: r.type,
        title: TITLES[op.title],
        body: BODIES[op.body],
        scope,
        source: 'mcp_tool',
        supersedes: r.id,
      });
      return;
    }
    case 'retire': {
      const r = pick(op.i);
      if (!r) return;
      db.transaction(() => {
        db.prepare('UPDATE records SET superseded_at = ? WHERE id = ?').run(s.now().toISOString(), r.id);
      })();
      return;
    }
    case 'delete': {
      const r = pick(op.i);
      if (!r) return;
      db.transaction(() => {
        db.prepare('DELETE FROM edges WHERE from_id = ? OR to_id = ?').run(r.id, r.id);
        db.prepare('UPDATE records SET superseded_by = NULL WHERE superseded_by = ?').run(r.id);
        db.prepare('DELETE FROM records WHERE id = ?').run(r.id);
      })();
      return;
    }
    case 'rewrite': {
      // any record, history included: a writer that rewrites text in place
      const all = db.prepare('SELECT id, type FROM records ORDER BY id').all() as {
        id: string;
        type: string;
      }[];
      const r = all[op.i % Math.max(1, all.length)];
      if (!r) return;
      const type = r.type === 'handover' || TYPES[op.type] === 'handover' ? r.type : TYPES[op.type];
      db.prepare('UPDATE records SET type = ?, title = ?, body = ? WHERE id = ?').run(
        type,
        TITLES[op.title],
        BODIES[op.body],
        r.id,
      );
      return;
    }
    case 'clearKeys':
      db.prepare('UPDATE records SET content_key = NULL').run();
      return;
    case 'scrub': {
      // each scrub a new redactor (its fingerprint differs): a full pass over every row
      const patterns = [PATTERN, `zqnever-${scrubs.n++}`];
      scrubStore({ db, redact: redactorFor(patterns).redact, fingerprint: redactorFingerprint(patterns) });
      return;
    }
    case 'run': {
      const want = planExactMerges(dupInputs(db, NS), 3);
      const got = planKeyedMerges(db, NS, 3, () => {}, {
        cap: 3,
        maxMs: Number.POSITIVE_INFINITY,
        pauseMs: 0,
      });
      expect(got.plans).toEqual(want);
      for (const p of got.plans) applyMerge(db, s.newId, p, s.now().toISOString());
      keysFresh(db);
      expect(planExactMerges(dupInputs(db, NS), 3)).toEqual([]);
    }
  }
}

describe('exact duplicates from content keys', () => {
  it('plans what planExactMerges plans over every current record, across any writes between runs', () => {
    let runs = 0;
    let merged = 0;
    fc.assert(
      fc.property(fc.array(anyOp, { minLength: 5, maxLength: 40 }), (ops) => {
        const s = setup(`p${runs++}`);
        const scrubs = { n: 0 };
        try {
          for (const op of [...ops, { op: 'run' as const }]) {
            const before = current(s.db).length;
            apply(s, op, scrubs);
            if (op.op === 'run') merged += before - current(s.db).length;
          }
        } finally {
          s.db.close();
        }
      }),
      { seed: 20_2026, numRuns: 40 },
    );
    expect(merged).toBeGreaterThan(20); // the runs had duplicates to merge
  });

  it('a rerun keys only what was written since, and merges a copy written after the last run', () => {
    const s = setup('run');
    const root = join(t.path, 'no-repo');
    const run = () =>
      consolidate({
        db: s.db,
        clock: s.now,
        newId: s.newId,
        project: { id: PROJECT, name: 'k', root },
        digestsDir: join(t.path, 'digests'),
      });
    for (let i = 0; i < 5; i++)
      createRecord(s.deps, { type: 'decision', title: `T${i}`, body: `B${i}`, source: 'mcp_tool' });
    expect(run()).toMatchObject({ keyed: 5, merged: 0 });
    expect(run()).toMatchObject({ keyed: 0, merged: 0 });
    createRecord(s.deps, { type: 'decision', title: 't3!', body: 'b3', source: 'mcp_tool' });
    expect(run()).toMatchObject({ keyed: 1, merged: 1 });
    s.db.close();
  });
});
