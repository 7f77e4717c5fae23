import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyScores } from '../../../../src/core/consolidation/apply.js';
import { scoreInputs } from '../../../../src/core/consolidation/inputs.js';
import { planScores } from '../../../../src/core/consolidation/scores.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { search } from '../../../../src/core/retrieval/search.js';
import type { Db } from '../../../../src/database/open.js';
import { addShown, setVerdict } from '../../../../src/database/usage-repo.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

// The derived score's usage factor reaches retrieval: of two records that match a query equally,
// the one sessions kept using ranks above the one they were shown again and again and ignored.
let tmp: ReturnType<typeof tempDir>;
let db: Db;
let deps: ReturnType<typeof testStore>['deps'];
beforeEach(() => {
  tmp = tempDir('agentctx-usage-rank-');
  ({ db, deps } = testStore(tmp.path));
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

function order(): string[] {
  const now = deps.clock();
  applyScores(db, planScores(scoreInputs(db, ['p-test', '_global']), now));
  return search(db, { projectId: 'p-test', query: 'deploy pipeline cache', limit: 5, now }).hits.map(
    (h) => h.record.id,
  );
}

function sessions(id: string, n: number, used: number): void {
  for (let i = 0; i < n; i++) {
    addShown(db, `s-${id}-${i}`, [id], 'prompt', 100, '2026-11-29T10:00:00.000Z');
    setVerdict(db, `s-${id}-${i}`, id, i < used ? 'used' : 'unused', 'test', '2026-11-29T11:00:00.000Z');
  }
}

describe('usage evidence in ranking', () => {
  it('a record used often overtakes an equally matching one shown often and never used', () => {
    const kept = createRecord(deps, {
      type: 'decision',
      title: 'Deploy pipeline cache: keyed by lockfile hash',
      body: 'The deploy pipeline cache key is the lockfile hash.',
      source: 'cli',
      confidence: 'explicit',
    });
    const ignored = createRecord(deps, {
      type: 'decision',
      title: 'Deploy pipeline cache: keyed by lockfile hash',
      body: 'The deploy pipeline cache key is the lockfile hash!',
      source: 'cli',
      confidence: 'explicit',
    });
    const before = order();
    expect(before.slice(0, 2)).toEqual([ignored.id, kept.id]); // a tie, broken by id
    sessions(kept.id, 8, 6);
    sessions(ignored.id, 8, 0);
    expect(order().slice(0, 2)).toEqual([kept.id, ignored.id]);
  });
});
