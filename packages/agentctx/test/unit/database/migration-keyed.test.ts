import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MIGRATIONS } from '../../../src/database/migrations.js';
import { openDb } from '../../../src/database/open.js';
import { Db as Database } from '../../../src/database/sqlite.js';
import { tempDir } from '../../support/tmp.js';

/**
 * Migration 7 on a store written before it: duplicate current handovers and profile keys (which
 * `record --type handover` could leave) are closed, the newest kept; then the database itself
 * refuses a second current one.
 */

let t: ReturnType<typeof tempDir>;
let path: string;
beforeEach(() => {
  t = tempDir();
  path = join(t.path, 'agentctx.db');
});
afterEach(() => t.cleanup());

interface Seed {
  id: string;
  project: string;
  type: string;
  title: string;
  at: string;
  superseded?: boolean;
}

function storeAtVersion6(rows: Seed[]): void {
  const raw = new Database(path);
  for (const m of MIGRATIONS.slice(0, 6)) raw.exec(m);
  raw.pragma('user_version = 6');
  const ins = raw.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, valid_from, recorded_at, superseded_at, source)
     VALUES (?, ?, ?, ?, ?, 'project', 'explicit', ?, ?, ?, 'cli')`,
  );
  for (const r of rows)
    ins.run(r.id, r.project, r.type, r.title, `${r.title} body`, r.at, r.at, r.superseded ? r.at : null);
  raw.close();
}

describe('migration 7', () => {
  it('closes duplicate current keyed records, keeping the newest, then enforces one', () => {
    storeAtVersion6([
      { id: 'h1', project: 'p', type: 'handover', title: 'first', at: '2026-01-01T00:00:00.000Z' },
      { id: 'h3', project: 'p', type: 'handover', title: 'third', at: '2026-01-03T00:00:00.000Z' },
      { id: 'h2', project: 'p', type: 'handover', title: 'second', at: '2026-01-02T00:00:00.000Z' },
      {
        id: 'h0',
        project: 'p',
        type: 'handover',
        title: 'old',
        at: '2025-01-01T00:00:00.000Z',
        superseded: true,
      },
      { id: 'q1', project: 'q', type: 'handover', title: 'other project', at: '2026-01-01T00:00:00.000Z' },
      {
        id: 'pa',
        project: 'p',
        type: 'profile',
        title: 'profile: test command',
        at: '2026-01-01T00:00:00.000Z',
      },
      {
        id: 'pb',
        project: 'p',
        type: 'profile',
        title: 'profile: test command',
        at: '2026-01-05T00:00:00.000Z',
      },
      { id: 'pc', project: 'p', type: 'profile', title: 'profile: name', at: '2026-01-01T00:00:00.000Z' },
      { id: 'd1', project: 'p', type: 'decision', title: 'same', at: '2026-01-01T00:00:00.000Z' },
      { id: 'd2', project: 'p', type: 'decision', title: 'same', at: '2026-01-02T00:00:00.000Z' },
    ]);
    const db = openDb(path);
    try {
      expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(7);
      const current = db
        .prepare('SELECT id FROM records WHERE superseded_at IS NULL ORDER BY id')
        .all()
        .map((r) => (r as { id: string }).id);
      expect(current).toEqual(['d1', 'd2', 'h3', 'pb', 'pc', 'q1']);
      const closed = db
        .prepare("SELECT id, superseded_by FROM records WHERE id IN ('h1', 'h2', 'pa') ORDER BY id")
        .all();
      expect(closed).toEqual([
        { id: 'h1', superseded_by: 'h3' },
        { id: 'h2', superseded_by: 'h3' },
        { id: 'pa', superseded_by: 'pb' },
      ]);
      const edges = db
        .prepare("SELECT from_id, to_id FROM edges WHERE rel_type = 'supersedes' ORDER BY to_id")
        .all();
      expect(edges).toEqual([
        { from_id: 'h3', to_id: 'h1' },
        { from_id: 'h3', to_id: 'h2' },
        { from_id: 'pb', to_id: 'pa' },
      ]);
      const dup = (id: string, type: string, title: string) =>
        db
          .prepare(
            `INSERT INTO records (id, project_id, type, title, body, valid_from, recorded_at, source)
             VALUES (?, 'p', ?, ?, 'x', '2026-02-01', '2026-02-01', 'cli')`,
          )
          .run(id, type, title);
      expect(() => dup('h4', 'handover', 'another')).toThrow(/UNIQUE/);
      expect(() => dup('pd', 'profile', 'profile: name')).toThrow(/UNIQUE/);
      expect(() => dup('pe', 'profile', 'profile: lint command')).not.toThrow();
    } finally {
      db.close();
    }
  });
});
