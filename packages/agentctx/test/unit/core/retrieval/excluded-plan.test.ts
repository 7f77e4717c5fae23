import { describe, expect, it } from 'vitest';
import { ftsCandidates } from '../../../../src/core/retrieval/candidates.js';
import { GLOBAL_PROJECT } from '../../../../src/shared/types.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * A long session excludes the ids it was shown. The prompt hook's first pass ranks the index's
 * best rows and then reads only those records; with the excluded ids' NOT IN in its filter,
 * SQLite's planner used to turn the join around and walk every record of the namespace
 * (records_project_current), ~20 ms per prompt at 100,000 records whatever the number of ids.
 */
describe('the prompt hook first pass with excluded ids', () => {
  it('reads the ranked rows first, never every record of the namespace', () => {
    const t = tempDir();
    const s = testStore(t.path, 'p');
    try {
      const ins = s.db.prepare(
        `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, source)
         VALUES (?, ?, 'discovery', ?, ?, ?, 'explicit', '2026-01-01', '2026-01-01', 'import')`,
      );
      s.db.transaction(() => {
        for (let i = 0; i < 3000; i++) {
          const owner = i % 10 === 0 ? GLOBAL_PROJECT : i % 3 === 0 ? 'p' : `other${i % 7}`;
          const words = i % 4 === 0 ? 'webhook retry queue' : 'webhook cache';
          ins.run(
            `r${i}`,
            owner,
            `note ${i} ${words}`,
            `body ${i} ${words}`,
            owner === GLOBAL_PROJECT ? 'global' : 'project',
          );
        }
      })();
      const seen: string[] = [];
      const prepare = s.db.prepare.bind(s.db);
      s.db.prepare = ((sql: string) => {
        seen.push(sql);
        return prepare(sql);
      }) as typeof s.db.prepare;
      const excludeIds = Array.from({ length: 300 }, (_, i) => `r${i * 3}`);
      const opts = {
        projectId: 'p',
        query: '',
        indexFirst: true,
        candidates: 30,
        excludeIds,
        now: s.clock(),
      };
      const rows = ftsCandidates(s.db, opts, '"webhook"* OR "retry"*');
      s.db.prepare = prepare;
      expect(rows.length).toBeGreaterThan(0);
      for (const r of rows) {
        expect([GLOBAL_PROJECT, 'p']).toContain(r.project_id);
        expect(excludeIds).not.toContain(r.id);
      }
      const first = seen.find((q) => q.includes('pool__'));
      expect(first).toBeDefined();
      const ns = ['p', GLOBAL_PROJECT];
      const plan = (
        prepare(`EXPLAIN QUERY PLAN ${first}`).all(
          '"webhook"* OR "retry"*',
          ...ns,
          JSON.stringify(excludeIds),
        ) as { detail: string }[]
      ).map((p) => p.detail);
      expect(plan.some((d) => /^SCAN top\b/.test(d))).toBe(true);
      expect(plan.some((d) => d.includes('records_project_current'))).toBe(false);
    } finally {
      s.db.close();
      t.cleanup();
    }
  });
});
