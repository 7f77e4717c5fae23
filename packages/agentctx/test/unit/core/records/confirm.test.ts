import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkStaleness } from '../../../../src/core/consolidation/staleness.js';
import { confirmRecord } from '../../../../src/core/records/confirm.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { retireRecord } from '../../../../src/core/records/retire.js';
import { AnchorReader, anchorFiles } from '../../../../src/database/file-anchors.js';
import { linkRecordEntity, upsertNode } from '../../../../src/database/graph-repo.js';
import { staleFilesOf } from '../../../../src/database/staleness-repo.js';
import type { GitHistory } from '../../../../src/git/git-history.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
let root: string;

beforeEach(() => {
  t = tempDir();
  s = testStore(t.path);
  root = join(t.path, 'repo');
  mkdirSync(join(root, 'src'), { recursive: true });
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

function linked(files: string[], confidence: 'inferred' | 'explicit' = 'explicit'): string {
  const rec = createRecord(s.deps, { type: 'decision', title: 'T', body: 'B', source: 'cli', confidence });
  for (const f of files) linkRecordEntity(s.db, rec.id, upsertNode(s.db, s.deps.newId, 'p-test', 'file', f));
  anchorFiles(
    s.db,
    new AnchorReader(root),
    files.map((path) => ({ recordId: rec.id, path })),
    s.clock().toISOString(),
  );
  return rec.id;
}

function check(history: GitHistory | null = null) {
  return checkStaleness({
    db: s.db,
    projectId: 'p-test',
    reader: new AnchorReader(root),
    history,
    nowIso: s.clock().toISOString(),
  });
}

describe('confirmRecord', () => {
  it('reinforces an inferred record, anchors changed files anew, drops gone ones, follows a move', () => {
    for (const f of ['a', 'b', 'c']) writeFileSync(join(root, `src/${f}.ts`), `${f}\n`);
    const id = linked(['src/a.ts', 'src/b.ts', 'src/c.ts'], 'inferred');
    writeFileSync(join(root, 'src/a.ts'), 'a changed\n');
    rmSync(join(root, 'src/b.ts'));
    renameSync(join(root, 'src/c.ts'), join(root, 'src/d.ts'));
    writeFileSync(join(root, 'src/d.ts'), 'c moved and changed\n');
    const history: GitHistory = {
      position: new Map(),
      touches: new Map(),
      renames: new Map([['src/c.ts', [{ to: 'src/d.ts', at: 0 }]]]),
      commits: 1,
    };
    expect(check(history).stale_records).toBe(1);
    expect(
      staleFilesOf(s.db, [id])
        .get(id)
        ?.map((f) => f.state)
        .sort(),
    ).toEqual(['changed', 'deleted', 'renamed']);

    const c = confirmRecord({ ...s.deps, projectRoot: root }, id);
    expect(c.reinforced).toBe(true);
    expect(c.record.confidence).toBe('reinforced');
    expect(c.dropped).toBe(2); // b gone, c moved away
    expect(staleFilesOf(s.db, [id]).size).toBe(0);
    const anchors = s.db.prepare('SELECT path FROM file_anchors WHERE record_id = ? ORDER BY path').all(id);
    expect(anchors).toEqual([{ path: 'src/a.ts' }, { path: 'src/d.ts' }]);
    // the next check agrees: nothing changed since the confirmation
    expect(check(history).stale_records).toBe(0);
    // and a later change makes it stale again
    writeFileSync(join(root, 'src/d.ts'), 'changed again\n');
    expect(check(history).stale_records).toBe(1);
  });

  it('refuses a record that is no longer current', () => {
    writeFileSync(join(root, 'src/a.ts'), 'a\n');
    const id = linked(['src/a.ts']);
    retireRecord(s.deps, id);
    expect(() => confirmRecord({ ...s.deps, projectRoot: root }, id)).toThrow(/no longer current/);
  });
});
