import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { promoteRecords } from '../../../../src/core/team/promote.js';
import type { Confidence, RecordType } from '../../../../src/shared/types.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';
import { countRecords, exportTeam, importTeam } from './helpers.js';

/**
 * The property: export → import into an empty store → export is byte-identical, over
 * generated stores (every type, inferred and promoted records, supersessions, bodies holding
 * lines that look like the file's own structure).
 */

const TYPES: RecordType[] = [
  'decision',
  'convention',
  'preference',
  'discovery',
  'bugfix',
  'handover',
  'profile',
];
const word = fc.constantFrom(
  'orders',
  'Postgres',
  'retry',
  'cache',
  'é日本',
  'x',
  'API',
  'v2',
  '`code`',
  '->',
);
const trickyLine = fc.constantFrom(
  '## Decisions',
  '### Not a title',
  '# Team context',
  '<!-- agentctx:id=01FAKE type=decision -->',
  '\\## already escaped',
  '=======',
  '<<<<<<< HEAD',
  '  indented line',
  'trailing spaces   ',
  '',
  '- a list item',
  '```',
);
const line = fc.oneof(
  { weight: 3, arbitrary: fc.array(word, { minLength: 1, maxLength: 8 }).map((w) => w.join(' ')) },
  { weight: 1, arbitrary: trickyLine },
);
const body = fc
  .tuple(fc.array(line, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'))
  .map(([ls, nl]) => `first ${ls.join(nl)}`);
const title = fc
  .tuple(fc.array(word, { minLength: 1, maxLength: 5 }), fc.constantFrom(' ', '  ', '\n'))
  .map(([w, sep]) => w.join(sep));

type Op =
  | { op: 'create'; type: RecordType; title: string; body: string; confidence: Confidence; pinned: boolean }
  | { op: 'supersede'; pick: number; body: string }
  | { op: 'promote'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('create' as const),
      type: fc.constantFrom(...TYPES),
      title,
      body,
      confidence: fc.constantFrom<Confidence>('explicit', 'inferred', 'reinforced'),
      pinned: fc.boolean(),
    }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('supersede' as const), pick: fc.nat(), body }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('promote' as const), pick: fc.nat() }) },
);

const dirs: { cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function run(ops: Op[]): { a: ReturnType<typeof testStore> } {
  const dir = tempDir('agentctx-team-rt-');
  dirs.push(dir);
  const a = testStore(dir.path, 'p-team');
  let t = Date.parse('2026-01-01T00:00:00Z');
  const ids: string[] = [];
  ops.forEach((o, i) => {
    t += 3_600_000;
    a.setNow(new Date(t).toISOString());
    if (o.op === 'create') {
      // one fact per title (profile facts are keyed by title; identical copies are merged)
      const rec = createRecord(a.deps, { ...o, title: `${o.title} ${i}`, source: 'cli' });
      ids.push(rec.id);
    } else if (ids.length > 0) {
      const id = ids[o.pick % ids.length]!;
      const head = a.db.prepare('SELECT superseded_at FROM records WHERE id = ?').get(id) as {
        superseded_at: string | null;
      };
      if (head.superseded_at) return;
      if (o.op === 'supersede') {
        const res = supersedeRecord(a.deps, id, { body: o.body, rationale: `change ${i}`, source: 'cli' });
        ids[o.pick % ids.length] = res.new_id;
      } else {
        const type = (a.db.prepare('SELECT type FROM records WHERE id = ?').get(id) as { type: string }).type;
        if (type !== 'handover') promoteRecords(a.deps, [id]);
      }
    }
  });
  return { a };
}

describe('team file round trip', () => {
  it('export → import into an empty store → export is byte-identical', () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 14 }), (ops) => {
        const { a } = run(ops);
        const first = exportTeam(a.deps).text;
        expect(exportTeam(a.deps).text).toBe(first); // deterministic re-export
        const dir = tempDir('agentctx-team-rt-b-');
        dirs.push(dir);
        const b = testStore(dir.path, 'p-team');
        b.setNow('2027-06-01T00:00:00Z');
        const report = importTeam(b.deps, first);
        expect(report.errors).toEqual([]);
        expect(exportTeam(b.deps).text).toBe(first);
        // a second import changes nothing
        const n = countRecords(b.db);
        const again = importTeam(b.deps, first);
        expect(again.created.length + again.updated.length + again.removed.length).toBe(0);
        expect(countRecords(b.db)).toBe(n);
        a.db.close();
        b.db.close();
      }),
      { seed: 1616, numRuns: 30 },
    );
  });
});
