import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { expect } from 'vitest';
import { runDriftStep } from '../../src/core/consolidation/drift-step.js';
import { planDriftScores, type RunState } from '../../src/core/consolidation/plan.js';
import { scanDrift } from '../../src/core/drift/scan.js';
import { createRecord, type RecordsDeps } from '../../src/core/records/records.js';
import { type Db, openDb } from '../../src/database/open.js';
import type { Confidence } from '../../src/shared/types.js';

/**
 * A model of what happens to a project between two consolidation runs, for the drift step's
 * tests (test/unit/core/consolidation/drift-step.test.ts): record writes, CLAUDE.md edits, the
 * clock moving; and a run, which checks the step against a full scan from scratch.
 */

export const PROJECT = 'proj-d';
export const SAID: [string, string][] = [
  ['Use Redis for sessions', 'Sessions are cached in Redis with a one hour expiry.'],
  ['Use Postgres for sessions', 'Sessions are stored in Postgres tables with a daily purge.'],
  ['Retry webhooks with backoff', 'Webhook deliveries retry five times with exponential backoff.'],
  ['Retry webhooks immediately', 'Webhook deliveries retry at once without any delay.'],
  ['Lint with Biome', 'Biome checks formatting and lint rules before each commit.'],
  ['Lint with ESLint', 'ESLint and Prettier check the code before each commit.'],
  ['Deploy on Fridays', 'Production deploys happen on Friday afternoons.'],
  ['Never deploy on Fridays', 'No production deploys after Thursday noon.'],
];
const FILES = ['CLAUDE.md', '.claude/CLAUDE.md', 'docs/more.md'];
const CONFIDENCE: Confidence[] = ['inferred', 'explicit', 'reinforced'];
const TYPES = ['decision', 'convention', 'decision', 'discovery'];

export type Op =
  | { op: 'add'; said: number; type: number; conf: number }
  | { op: 'supersede'; i: number; said: number }
  | { op: 'retire' | 'delete' | 'pin' | 'confirm'; i: number }
  | { op: 'rewrite'; i: number; said: number }
  | { op: 'line'; file: number; said: number; struck: boolean }
  | { op: 'unline'; file: number; i: number }
  | { op: 'stateOld'; i: number }
  | { op: 'rmfile'; file: number }
  | { op: 'clearScores' | 'dropCounter' }
  | { op: 'age'; days: number }
  | { op: 'run' };

const ix = (n: number) => fc.nat({ max: n - 1 });
const at = (op: 'retire' | 'delete' | 'pin' | 'confirm') => fc.record({ op: fc.constant(op), i: fc.nat() });
export const anyOp: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({ op: fc.constant('add' as const), said: ix(8), type: ix(4), conf: ix(3) }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('supersede' as const), i: fc.nat(), said: ix(8) }) },
  { weight: 3, arbitrary: fc.oneof(at('retire'), at('delete'), at('pin'), at('confirm')) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rewrite' as const), i: fc.nat(), said: ix(8) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('line' as const),
      file: ix(3),
      said: ix(8),
      struck: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('unline' as const), file: ix(3), i: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('rmfile' as const), file: ix(3) }) },
  // derived data cleared (CONTRACTS.md §stored-derived), and the change counter's row lost
  { weight: 1, arbitrary: fc.constantFrom({ op: 'clearScores' as const }, { op: 'dropCounter' as const }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('stateOld' as const), i: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('age' as const),
      days: fc.oneof(
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 60, max: 100 }),
        fc.integer({ min: -120, max: -1 }),
      ),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: 'run' as const }) },
);

export function setup(root: string) {
  mkdirSync(join(root, '.claude'), { recursive: true });
  mkdirSync(join(root, 'docs'), { recursive: true });
  const db = openDb(join(root, 'agentctx.db'));
  let n = 0;
  let clock = Date.parse('2026-06-01T00:00:00Z');
  const newId = () => `01D${String(++n).padStart(23, '0')}`;
  const deps: RecordsDeps = { db, clock: () => new Date(clock), newId, projectId: PROJECT };
  const lines: (string[] | null)[] = [null, null, null];
  const write = (f: number) => {
    const path = join(root, FILES[f]!);
    if (lines[f] === null) rmSync(path, { force: true });
    // CLAUDE.md imports docs/more.md
    else writeFileSync(path, [...(f === 0 ? ['@docs/more.md', ''] : []), ...lines[f]!].join('\n'));
  };
  return {
    db,
    deps,
    root,
    newId,
    lines,
    write,
    now: () => new Date(clock),
    tick: (ms: number) => (clock += ms),
  };
}
export type S = ReturnType<typeof setup>;

const current = (db: Db) =>
  db.prepare('SELECT id, type FROM records WHERE superseded_at IS NULL ORDER BY id').all() as {
    id: string;
    type: string;
  }[];

function stored(db: Db): [string, number][] {
  return (
    db
      .prepare(
        'SELECT id, claudemd_drift_score AS s FROM records WHERE project_id = ? AND claudemd_drift_score != 0 ORDER BY id',
      )
      .all(PROJECT) as { id: string; s: number }[]
  ).map((r) => [r.id, r.s]);
}

export function apply(s: S, op: Op, state: RunState, seen: { reused: number; scanned: number }): void {
  const { db, deps } = s;
  const cur = current(db);
  const pick = (i: number) => cur[i % cur.length];
  s.tick(60_000);
  const said = (k: number) => SAID[k]!;
  switch (op.op) {
    case 'add': {
      const [title, body] = said(op.said);
      createRecord(deps, {
        type: TYPES[op.type],
        title,
        body,
        confidence: CONFIDENCE[op.conf],
        source: 'mcp_tool',
      });
      return;
    }
    case 'supersede': {
      const r = pick(op.i);
      if (!r) return;
      const [title, body] = said(op.said);
      createRecord(deps, {
        type: r.type,
        title,
        body,
        confidence: 'explicit',
        source: 'mcp_tool',
        supersedes: r.id,
      });
      return;
    }
    case 'retire':
    case 'delete': {
      const r = pick(op.i);
      if (!r) return;
      db.transaction(() => {
        if (op.op === 'retire') {
          db.prepare('UPDATE records SET superseded_at = ? WHERE id = ?').run(s.now().toISOString(), r.id);
          return;
        }
        db.prepare('UPDATE records SET superseded_by = NULL WHERE superseded_by = ?').run(r.id);
        db.prepare('DELETE FROM records WHERE id = ?').run(r.id);
      })();
      return;
    }
    case 'pin':
    case 'confirm': {
      const r = pick(op.i);
      if (!r) return;
      if (op.op === 'pin') db.prepare('UPDATE records SET pinned = 1 - pinned WHERE id = ?').run(r.id);
      else db.prepare("UPDATE records SET confidence = 'reinforced' WHERE id = ?").run(r.id);
      return;
    }
    case 'rewrite': {
      // any record, history included, rewritten in place (as the secret scrub does)
      const all = db.prepare('SELECT id FROM records ORDER BY id').all() as { id: string }[];
      const r = all[op.i % Math.max(1, all.length)];
      const [title, body] = said(op.said);
      if (r) db.prepare('UPDATE records SET title = ?, body = ? WHERE id = ?').run(title, body, r.id);
      return;
    }
    case 'line': {
      const [title, body] = said(op.said);
      const line = `- ${title}: ${body}`;
      s.lines[op.file] = [...(s.lines[op.file] ?? []), op.struck ? `- ~~${title}: ${body}~~` : line];
      s.write(op.file);
      return;
    }
    case 'unline': {
      const l = s.lines[op.file];
      if (!l || l.length === 0) return;
      l.splice(op.i % l.length, 1);
      s.write(op.file);
      return;
    }
    case 'stateOld': {
      // CLAUDE.md states what a superseded record said
      const old = db
        .prepare('SELECT title, body FROM records WHERE superseded_by IS NOT NULL ORDER BY id')
        .all() as { title: string; body: string }[];
      const r = old[op.i % Math.max(1, old.length)];
      if (!r) return;
      s.lines[0] = [...(s.lines[0] ?? []), `- ${r.title}: ${r.body}`];
      s.write(0);
      return;
    }
    case 'clearScores':
      db.prepare('UPDATE records SET claudemd_drift_score = 0').run();
      return;
    case 'dropCounter':
      db.prepare('DELETE FROM record_changes').run();
      return;
    case 'rmfile':
      s.lines[op.file] = null;
      s.write(op.file);
      return;
    case 'age':
      s.tick(op.days * 86_400_000);
      return;
    case 'run': {
      const project = { id: PROJECT, root: s.root };
      const want = planDriftScores(scanDrift(db, project, s.now()));
      const out = runDriftStep({ db, project, now: s.now(), state, slice: { cap: 2, pauseMs: 0 } });
      expect(out.counts).toEqual(want.counts);
      const target = new Map(want.scores.map((x) => [x.id, x.score]));
      expect(stored(db)).toEqual(
        [...target].filter(([, v]) => v !== 0).sort((a, b) => (a[0] < b[0] ? -1 : 1)),
      );
      if (out.reused) seen.reused++;
      else seen.scanned++;
    }
  }
}
