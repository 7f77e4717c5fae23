import { join } from 'node:path';
import fc from 'fast-check';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergePair } from '../../../../src/core/consolidation/merge-pair.js';
import { ingestRuleHandover } from '../../../../src/core/extraction/ingest.js';
import { clearProfile, editProfile } from '../../../../src/core/profile/profile.js';
import { createRecord, type RecordsDeps, supersedeRecord } from '../../../../src/core/records/records.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import { AgentctxError } from '../../../../src/shared/errors.js';
import { GLOBAL_PROJECT } from '../../../../src/shared/types.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * Random sequences of writes through every service that writes records, from two projects:
 * after each one, at most one current handover per project and one current profile record per
 * key (CONTRACTS.md §keyed); a write never changes another project's records, a project-scoped
 * write never changes the global namespace (CONTRACTS.md §namespaces); a write that fails changes
 * nothing and fails with a domain error (never a raw SQLite one).
 */

const PROJECTS = ['alpha', 'beta'] as const;
const TITLES = ['profile: test command', 'profile: name', 'Storage engine'];
const TYPES = ['handover', 'profile', 'decision', 'preference'] as const;

type Op =
  | {
      kind: 'create';
      project: number;
      type: (typeof TYPES)[number];
      title: number;
      global: boolean;
      supersedes: number | null;
      /** Take the type of the record it supersedes (else a type mismatch fails most of them). */
      sameType: boolean;
    }
  | { kind: 'supersede'; project: number; pick: number; title: number | null }
  | { kind: 'rule-handover'; project: number }
  | { kind: 'merge'; project: number; a: number; b: number }
  | { kind: 'profile-edit'; pick: number }
  | { kind: 'profile-clear'; pick: number };

const pick = fc.nat(12);
const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      kind: fc.constant('create' as const),
      project: fc.nat(1),
      type: fc.constantFrom(...TYPES),
      title: fc.nat(TITLES.length - 1),
      global: fc.boolean(),
      supersedes: fc.option(pick, { freq: 3 }),
      sameType: fc.boolean(),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('supersede' as const),
      project: fc.nat(1),
      pick,
      title: fc.option(fc.nat(TITLES.length - 1)),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('rule-handover' as const), project: fc.nat(1) }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('merge' as const), project: fc.nat(1), a: pick, b: pick }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('profile-edit' as const), pick }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('profile-clear' as const), pick }) },
);

interface Row {
  id: string;
  project_id: string;
  type: string;
  title: string;
  superseded_at: string | null;
}

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir('agentctx-writes-');
});
afterEach(() => t.cleanup());

function rowsOf(db: Db): Row[] {
  return db.prepare('SELECT * FROM records ORDER BY rowid').all() as Row[];
}

function apply(db: Db, deps: (p: string) => RecordsDeps, o: Op, rows: Row[]): void {
  const pick = (i: number) => rows[i % Math.max(1, rows.length)]?.id ?? 'none';
  let n = 0;
  const text = () => `Fact ${rows.length}-${++n}.`;
  switch (o.kind) {
    case 'create': {
      const target = o.supersedes === null ? undefined : rows[o.supersedes % Math.max(1, rows.length)];
      createRecord(deps(PROJECTS[o.project]!), {
        type: o.sameType && target ? target.type : o.type,
        title: TITLES[o.title],
        body: text(),
        scope: o.global ? 'global' : 'project',
        supersedes: o.supersedes === null ? null : pick(o.supersedes),
        source: 'cli',
        confidence: 'explicit',
      });
      return;
    }
    case 'supersede':
      supersedeRecord(deps(PROJECTS[o.project]!), pick(o.pick), {
        body: text(),
        ...(o.title === null ? {} : { title: TITLES[o.title] }),
        source: 'mcp_tool',
      });
      return;
    case 'rule-handover':
      ingestRuleHandover(
        deps(PROJECTS[o.project]!),
        { title: 'Where we are', body: text() },
        { sessionId: `s${rows.length}`, source: 'hook_observation' },
      );
      return;
    case 'merge':
      mergePair(deps(PROJECTS[o.project]!), pick(o.a), pick(o.b));
      return;
    case 'profile-edit':
      editProfile(deps(PROJECTS[0]), pick(o.pick), { body: text() });
      return;
    case 'profile-clear':
      clearProfile(db, pick(o.pick), new Date());
      return;
  }
}

/** The namespace a write acts for: its project, or _global for the global profile commands. */
function writer(o: Op): string {
  return 'project' in o ? PROJECTS[o.project]! : GLOBAL_PROJECT;
}

function mayTouchGlobal(o: Op, rows: Row[]): boolean {
  if (o.kind === 'create') return o.global;
  if (o.kind === 'supersede') return rows[o.pick % Math.max(1, rows.length)]?.project_id === GLOBAL_PROJECT;
  return o.kind !== 'rule-handover';
}

describe('every write path', () => {
  it('keeps one current keyed record, stays in its namespace, and fails cleanly', () => {
    let run = 0;
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 25 }), (ops) => {
        const db = openDb(join(t.path, `store-${run++}.db`));
        const newId = monotonicFactory();
        const deps = (projectId: string): RecordsDeps => ({ db, clock: () => new Date(), newId, projectId });
        try {
          for (const o of ops) {
            const before = rowsOf(db);
            try {
              apply(db, deps, o, before);
            } catch (err) {
              if (!(err instanceof AgentctxError)) throw err;
              expect(rowsOf(db)).toEqual(before);
              continue;
            }
            const after = rowsOf(db);
            const current = after.filter((r) => r.superseded_at === null);
            const keys = current
              .filter((r) => r.type === 'handover' || r.type === 'profile')
              .map((r) => `${r.project_id}|${r.type}|${r.type === 'profile' ? r.title : ''}`);
            expect(new Set(keys).size).toBe(keys.length);
            const own = writer(o);
            const untouchable = (r: Row) =>
              r.project_id !== own && (r.project_id !== GLOBAL_PROJECT || !mayTouchGlobal(o, before));
            expect(after.filter((r) => before.some((b) => b.id === r.id) && untouchable(r))).toEqual(
              before.filter(untouchable),
            );
          }
        } finally {
          db.close();
        }
      }),
      { seed: 3141, numRuns: 40 },
    );
  });
});
