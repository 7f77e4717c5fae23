import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { fileKeys, relatedRecords, WALK_MAX_ROWS } from '../../../../src/core/records/related.js';
import { addEdge, linkRecordEntity, upsertNode } from '../../../../src/database/graph-repo.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'proj-a');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const rec = (title: string) =>
  createRecord(s.deps, {
    type: 'discovery',
    title,
    body: `${title} body`,
    source: 'cli',
    confidence: 'explicit',
  }).id;
const node = (kind: 'file' | 'symbol' | 'module', value: string, project = 'proj-a') =>
  upsertNode(s.db, s.deps.newId, project, kind, value);

describe('fileKeys', () => {
  it('covers the spellings a path may be stored under', () => {
    expect(fileKeys('./src/a.ts', '/r')).toEqual(
      expect.arrayContaining(['./src/a.ts', 'src/a.ts', '/r/src/a.ts']),
    );
    expect(fileKeys('/r/src/a.ts', '/r')).toContain('src/a.ts');
    expect(fileKeys('/elsewhere/a.ts', '/r')).not.toContain('../elsewhere/a.ts');
    expect(fileKeys('src\\win\\a.ts')).toContain('src/win/a.ts');
    expect(fileKeys('   ')).toEqual([]);
  });
});

describe('relatedRecords', () => {
  it('orders by distance, survives cycles, and stops at the depth guard', () => {
    const file = node('file', 'src/a.ts');
    const chain = [file];
    for (let i = 1; i <= 9; i++) {
      const n = node('symbol', `c${i}`);
      addEdge(s.db, s.deps.newId, chain[i - 1]!, n, 'derives_from');
      chain.push(n);
    }
    addEdge(s.db, s.deps.newId, chain[9]!, file, 'derives_from'); // a 10-node cycle
    const at = [0, 1, 3, 5, 6, 7].map((d) => {
      const id = rec(`at ${d}`);
      linkRecordEntity(s.db, id, chain[d]!);
      return { id, d };
    });
    const got = relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-a', maxDepth: 6 });
    // the cycle makes c7 three hops away the other way round (a → c9 → c8 → c7)
    expect(got).toEqual([
      { id: at[0]!.id, depth: 0 },
      { id: at[1]!.id, depth: 1 },
      { id: at[5]!.id, depth: 3 }, // same distance: the newer record first
      { id: at[2]!.id, depth: 3 },
      { id: at[4]!.id, depth: 4 },
      { id: at[3]!.id, depth: 5 },
    ]);
    // a small guard cuts the far ones; a small limit returns the nearest
    expect(
      relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-a', maxDepth: 1 }).map((r) => r.depth),
    ).toEqual([0, 1]);
    expect(relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-a', limit: 2 }).map((r) => r.depth)).toEqual([
      0, 1,
    ]);
  });

  it('leaves out superseded records unless history, and other projects always', () => {
    const file = node('file', 'src/a.ts');
    const old = rec('old fact');
    linkRecordEntity(s.db, old, file);
    const next = supersedeRecord(s.deps, old, { body: 'new fact', source: 'cli' }).new_id;
    linkRecordEntity(s.db, next, file);
    const other = createRecord(
      { ...s.deps, projectId: 'proj-b' },
      { type: 'discovery', title: 'b', body: 'b', source: 'cli' },
    ).id;
    linkRecordEntity(s.db, other, node('file', 'src/a.ts', 'proj-b'));
    linkRecordEntity(s.db, other, file); // even linked to A's node, B's record stays invisible
    expect(relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-a' }).map((r) => r.id)).toEqual([next]);
    expect(
      new Set(relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-a', history: true }).map((r) => r.id)),
    ).toEqual(new Set([old, next]));
    expect(relatedRecords(s.db, 'src/a.ts', { projectId: 'proj-b' }).map((r) => r.id)).toEqual([other]);
  });

  it('stays bounded in a dense graph', () => {
    const file = node('file', 'src/hub.ts');
    const ns = Array.from({ length: 120 }, (_, i) => node('symbol', `k${i}`));
    s.db.transaction(() => {
      for (const a of ns) for (const b of ns) if (a < b) addEdge(s.db, s.deps.newId, a, b, 'derives_from');
      for (const n of ns) addEdge(s.db, s.deps.newId, file, n, 'scoped_to');
    })();
    const id = rec('on a symbol');
    linkRecordEntity(s.db, id, ns[77]!);
    const started = performance.now();
    const got = relatedRecords(s.db, 'src/hub.ts', { projectId: 'proj-a' });
    expect(got).toEqual([{ id, depth: 1 }]);
    expect(WALK_MAX_ROWS).toBeLessThanOrEqual(2000);
    expect(performance.now() - started).toBeLessThan(5000); // a runaway walk would take minutes
  });
});
