import { statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportMarkdown } from '../../../../src/core/records/export.js';
import {
  createRecord,
  reinforceRecord,
  requireVisible,
  supersedeRecord,
} from '../../../../src/core/records/records.js';
import { search } from '../../../../src/core/retrieval/search.js';
import { supersessionChain } from '../../../../src/database/records-repo.js';
import { AgentctxError } from '../../../../src/shared/errors.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;
beforeEach(() => {
  t = tempDir();
  s = testStore(join(t.path, 'home'), 'project-a');
});
afterEach(() => {
  s.db.close();
  t.cleanup();
});

const base = { source: 'cli' as const, confidence: 'explicit' as const };

describe('store files', () => {
  it('creates the folder 0700 and the database files 0600, in WAL mode', () => {
    expect(statSync(join(t.path, 'home')).mode & 0o777).toBe(0o700);
    expect(statSync(join(t.path, 'home', 'agentctx.db')).mode & 0o777).toBe(0o600);
    expect(s.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(s.db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(s.db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
  });
});

describe('records', () => {
  it('validates type, title and body', () => {
    const bad = [
      { type: 'nope', title: 't', body: 'b' },
      { type: 'decision', title: '', body: 'b' },
      { type: 'decision', title: 'x'.repeat(121), body: 'b' },
      { type: 'decision', title: 't', body: 'x'.repeat(2001) },
      { type: 'decision', title: 't', body: '   ' },
      { type: 'handover', title: 't', body: 'b', scope: 'global' },
    ];
    for (const input of bad) expect(() => createRecord(s.deps, { ...base, ...input })).toThrow(AgentctxError);
    expect(s.db.prepare('SELECT COUNT(*) AS n FROM records').get()).toEqual({ n: 0 });
  });

  it('supersedes atomically, keeps history, and names the head when the old record is already superseded', () => {
    const a = createRecord(s.deps, {
      ...base,
      type: 'decision',
      title: 'Use REST',
      body: 'REST for the public API.',
    });
    s.setNow('2026-12-01T00:00:00Z');
    const b = supersedeRecord(s.deps, a.id, {
      body: 'GraphQL for the public API.',
      rationale: 'clients asked',
      source: 'cli',
    });
    expect(b.old_id).toBe(a.id);
    const old = requireVisible(s.deps, a.id);
    expect(old.superseded_by).toBe(b.new_id);
    expect(old.superseded_at).toBe('2026-12-01T00:00:00.000Z');
    expect(b.record.valid_from).toBe('2026-12-01T00:00:00.000Z');
    expect(b.record.body).toContain('clients asked');
    try {
      supersedeRecord(s.deps, a.id, { body: 'gRPC', source: 'cli' });
      expect.unreachable();
    } catch (err) {
      expect((err as AgentctxError).code).toBe('already_superseded');
      expect((err as AgentctxError).details.current_head).toBe(b.new_id);
    }
    expect(supersessionChain(s.db, a.id).map((r) => r.id)).toEqual([a.id, b.new_id]);
    expect(s.db.prepare('SELECT COUNT(*) AS n FROM records').get()).toEqual({ n: 2 });
  });

  it('never shows a superseded record in search or export by default', () => {
    const a = createRecord(s.deps, {
      ...base,
      type: 'decision',
      title: 'Database engine',
      body: 'Postgres for storage.',
    });
    createRecord(s.deps, {
      ...base,
      type: 'decision',
      title: 'Database engine',
      body: 'SQLite for storage.',
      supersedes: a.id,
    });
    const res = search(s.db, {
      projectId: 'project-a',
      query: 'database engine storage postgres',
      now: s.clock(),
    });
    expect(res.hits.map((h) => h.record.body)).toEqual(['SQLite for storage.']);
    const hist = search(s.db, { projectId: 'project-a', query: 'postgres', history: true, now: s.clock() });
    expect(hist.hits.map((h) => h.record.id)).toContain(a.id);
    const md = exportMarkdown(s.db, { id: 'project-a', name: 'a' }, s.clock()).markdown;
    expect(md).toContain('SQLite for storage.');
    expect(md).not.toContain('Postgres');
  });

  it('keeps projects apart: B sees its own records and the global profile, never A', () => {
    createRecord(s.deps, {
      ...base,
      type: 'convention',
      title: 'Tabs in A',
      body: 'Project A indents with tabs.',
    });
    createRecord(s.deps, {
      ...base,
      type: 'preference',
      title: 'Terse answers',
      body: 'Prefers terse answers.',
      scope: 'global',
    });
    const b = { ...s.deps, projectId: 'project-b' };
    const res = search(s.db, {
      projectId: 'project-b',
      query: 'tabs indents terse answers project',
      now: s.clock(),
    });
    expect(res.hits.map((h) => h.record.title)).toEqual(['Terse answers']);
    const aId = (s.db.prepare("SELECT id FROM records WHERE title = 'Tabs in A'").get() as { id: string }).id;
    expect(() => requireVisible(b, aId)).toThrow(/no record/);
    expect(() => supersedeRecord(b, aId, { body: 'spaces', source: 'cli' })).toThrow(/no record/);
    expect(exportMarkdown(s.db, { id: 'project-b', name: 'b' }, s.clock()).markdown).not.toContain('tabs');
  });

  it('reinforces inferred records after the threshold, one way only', () => {
    const r = createRecord(s.deps, {
      source: 'llm_extraction',
      type: 'preference',
      title: 'pnpm',
      body: 'Uses pnpm.',
    });
    expect(r.confidence).toBe('inferred');
    // seen in three sessions: the first, and two more
    expect(reinforceRecord(s.deps, r.id).confidence).toBe('inferred');
    expect(reinforceRecord(s.deps, r.id).confidence).toBe('reinforced');
    const e = createRecord(s.deps, { ...base, type: 'preference', title: 'npm', body: 'Uses npm.' });
    expect(reinforceRecord(s.deps, e.id).confidence).toBe('explicit');
    const i = createRecord(s.deps, {
      source: 'llm_extraction',
      type: 'preference',
      title: 'yarn',
      body: 'Uses yarn.',
    });
    expect(reinforceRecord(s.deps, i.id, true).confidence).toBe('reinforced');
  });
});
