import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord } from '../../../../src/core/records/records.js';
import { resetNamespace } from '../../../../src/core/records/reset.js';
import { touchSession } from '../../../../src/database/sessions-repo.js';
import { addShown, setVerdict } from '../../../../src/database/usage-repo.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let tmp: ReturnType<typeof tempDir>;
let store: ReturnType<typeof testStore>;
beforeEach(() => {
  tmp = tempDir('agentctx-reset-usage-');
  store = testStore(tmp.path, 'p-a');
});
afterEach(() => {
  store.db.close();
  tmp.cleanup();
});

describe('reset and usage evidence', () => {
  it('removes the namespace’s usage rows and keeps another project’s', () => {
    const { db, deps } = store;
    const mine = createRecord(deps, {
      type: 'decision',
      title: 'Mine',
      body: 'a fact of project a',
      source: 'cli',
    });
    const theirs = createRecord(
      { ...deps, projectId: 'p-b' },
      { type: 'decision', title: 'Theirs', body: 'a fact of project b', source: 'cli' },
    );
    const at = '2026-11-30T12:00:00.000Z';
    touchSession(db, 'sa', 'p-a', at);
    touchSession(db, 'sb', 'p-b', at);
    addShown(db, 'sa', [mine.id], 'digest', 10, at);
    addShown(db, 'sb', [theirs.id], 'digest', 10, at);
    setVerdict(db, 'sa', mine.id, 'used', 'x', at);
    resetNamespace(db, 'p-a');
    const left = (sql: string) => (db.prepare(sql).all() as { id: string }[]).map((r) => r.id);
    expect(left('SELECT record_id AS id FROM record_usage')).toEqual([theirs.id]);
    expect(left('SELECT session_id AS id FROM session_shown')).toEqual(['sb']);
  });
});
