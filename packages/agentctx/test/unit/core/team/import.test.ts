import { afterEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { chooseVersion } from '../../../../src/core/team/team-conflicts.js';
import { hasPending, pendingInFile } from '../../../../src/core/team/team-export.js';
import { mergeTeamFiles } from '../../../../src/core/team/team-merge.js';
import { EDIT_RATIONALE } from '../../../../src/core/team/team-resolve.js';
import { getRecord, supersessionChain } from '../../../../src/database/records-repo.js';
import { listTeamConflicts } from '../../../../src/database/team-conflicts-repo.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';
import { countRecords, current, exportTeam, importTeam } from './helpers.js';

const P = 'p-team';
const dirs: { path: string; cleanup: () => void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function store(now = '2026-03-01T09:00:00Z') {
  const d = tempDir('agentctx-team-imp-');
  dirs.push(d);
  const s = testStore(d.path, P);
  s.setNow(now);
  return { ...s, dir: d.path };
}

function decision(s: ReturnType<typeof store>, title: string, body: string) {
  return createRecord(s.deps, { type: 'decision', title, body, confidence: 'explicit', source: 'cli' });
}

describe('team import', () => {
  it('a hand edit supersedes its record with the edit rationale; a second import is a no-op', () => {
    const a = store();
    const rec = decision(a, 'Orders live in Postgres', 'We keep orders in Postgres 15.');
    const text = exportTeam(a.deps).text;
    const edited = text.replace('Postgres 15.', 'Postgres 16, upgraded in March.');
    a.setNow('2026-03-05T10:00:00Z');
    const report = importTeam(a.deps, edited);
    expect(report.updated.map((u) => u.old_id)).toEqual([rec.id]);
    const head = getRecord(a.db, report.updated[0]!.id)!;
    expect(head.body).toBe(
      `We keep orders in Postgres 16, upgraded in March.\n\nWhy it changed: ${EDIT_RATIONALE}`,
    );
    expect(head.source).toBe('import');
    expect(head.valid_from).toBe('2026-03-05T10:00:00.000Z');
    expect(getRecord(a.db, rec.id)!.superseded_by).toBe(head.id);
    const n = countRecords(a.db);
    const again = importTeam(a.deps, edited);
    expect(again.updated).toEqual([]);
    expect(again.unchanged).toBe(1);
    expect(countRecords(a.db)).toBe(n);
    // the export now carries the rationale under the same key
    const next = exportTeam(a.deps).text;
    expect(next).toContain(`Why it changed: ${EDIT_RATIONALE}`);
    expect(next.match(/agentctx:id=(\S+)/)?.[1]).toBe(rec.id);
  });

  it('a removed block closes its record only when confirmed; a stale file does not bring it back', () => {
    const a = store();
    const keep = decision(a, 'Keep this', 'Kept.');
    const gone = decision(a, 'Drop this', 'Dropped.');
    const text = exportTeam(a.deps).text;
    const without = text.replace(
      /<!-- agentctx:id=\S+ type=decision[^\n]*\n### Drop this\n\nDropped.\n\n?/,
      '',
    );
    expect(without).not.toContain('Drop this');
    const unconfirmed = importTeam(a.deps, without, false);
    expect(unconfirmed.kept.map((k) => k.id)).toEqual([gone.id]);
    expect(getRecord(a.db, gone.id)!.superseded_at).toBeNull();
    const confirmed = importTeam(a.deps, without, true);
    expect(confirmed.removed.map((k) => k.id)).toEqual([gone.id]);
    const closed = getRecord(a.db, gone.id)!;
    expect(closed.superseded_at).not.toBeNull();
    expect(closed.superseded_by).toBeNull();
    expect(getRecord(a.db, keep.id)!.superseded_at).toBeNull();
    // the old file again (a stale branch): the closed record stays closed
    const stale = importTeam(a.deps, text, true);
    expect(stale.created).toEqual([]);
    expect(current(a.db, P).map((r) => r.id)).toEqual([keep.id]);
  });

  it('a broken block is reported with its line and skipped; everything else is imported', () => {
    const a = store();
    decision(a, 'First decision', 'One.');
    decision(a, 'Second decision', 'Two.');
    decision(a, 'Third decision', 'Three.');
    const text = exportTeam(a.deps).text;
    const lines = text.split('\n');
    const second = lines.indexOf('### Second decision') - 1;
    lines[second] = lines[second]!.replace('type=decision', 'type=decisoin');
    const third = lines.indexOf('### Third decision');
    lines.splice(third, 1); // a marker without its title
    const broken = lines.join('\n');
    const b = store();
    const report = importTeam(b.deps, broken);
    expect(report.errors.map((e) => e.line)).toEqual([second + 1, third]);
    expect(report.errors[0]!.message).toContain('decisoin');
    expect(report.created.map((c) => c.title)).toEqual(['First decision']);
    expect(current(b.db, P).map((r) => r.title)).toEqual(['First decision']);
  });

  it('unresolved conflict markers are named by line and their block skipped', () => {
    const a = store();
    decision(a, 'Alpha', 'A.');
    const text = exportTeam(a.deps).text.replace('A.', '<<<<<<< HEAD\nA.\n=======\nA2.\n>>>>>>> theirs');
    const b = store();
    const report = importTeam(b.deps, text);
    const at = text.split('\n').indexOf('<<<<<<< HEAD') + 1;
    expect(report.errors.map((e) => e.line)).toEqual([at]);
    expect(countRecords(b.db)).toBe(0);
  });

  it('records added on two branches merge (union) and import on both sides without loss', () => {
    const a = store();
    decision(a, 'Shared base', 'Base.');
    const base = exportTeam(a.deps).text;
    const b = store();
    importTeam(b.deps, base);
    a.setNow('2026-03-02T09:00:00Z');
    decision(a, 'Added by A', 'From A.');
    b.setNow('2026-03-02T09:30:00Z');
    createRecord(b.deps, {
      type: 'convention',
      title: 'Added by B',
      body: 'From B.',
      confidence: 'explicit',
      source: 'cli',
    });
    decision(b, 'Also by B', 'From B too.');
    const merged = mergeTeamFiles(base, exportTeam(a.deps).text, exportTeam(b.deps).text)!;
    expect(merged).not.toMatch(/^(<{7}|>{7}|={7})/m);
    for (const s of [a, b]) {
      const r = importTeam(s.deps, merged);
      expect(r.errors).toEqual([]);
      expect(
        current(s.db, P)
          .map((x) => x.title)
          .sort(),
      ).toEqual(['Added by A', 'Added by B', 'Also by B', 'Shared base'].sort());
    }
    expect(exportTeam(a.deps).text).toBe(exportTeam(b.deps).text);
  });

  it('one record changed on two branches: the same current text on both sides, both versions in history', () => {
    const a = store();
    const rec = decision(a, 'Cache policy', 'Cache for 5 minutes.');
    const base = exportTeam(a.deps).text;
    const b = store();
    importTeam(b.deps, base);
    const bHead = current(b.db, P)[0]!;
    a.setNow('2026-03-03T09:00:00Z');
    supersedeRecord(a.deps, rec.id, { body: 'Cache for 10 minutes.', rationale: 'load', source: 'cli' });
    b.setNow('2026-03-03T11:00:00Z');
    supersedeRecord(b.deps, bHead.id, { body: 'Cache for 1 minute.', rationale: 'freshness', source: 'cli' });
    const fa = exportTeam(a.deps).text;
    const fb = exportTeam(b.deps).text;
    // what git's merge driver for the file (`agentctx team merge-file`) writes
    const merged = mergeTeamFiles(base, fa, fb)!;
    expect(merged.match(/agentctx:id=/g)?.length).toBe(2); // the same key twice
    for (const s of [a, b]) {
      const r = importTeam(s.deps, merged);
      expect(r.errors).toEqual([]);
      expect(r.conflicts.length).toBe(1);
      const heads = current(s.db, P);
      expect(heads.length).toBe(1);
      // B's change is the later one: current on both sides
      expect(heads[0]!.body).toContain('Cache for 1 minute.');
      const texts = supersessionChain(s.db, heads[0]!.id).map((r) => r.body);
      expect(texts.some((t) => t.includes('10 minutes'))).toBe(true);
      expect(texts.some((t) => t.includes('5 minutes'))).toBe(true);
      expect(importTeam(s.deps, merged).created.length + importTeam(s.deps, merged).updated.length).toBe(0);
    }
    // the conflict waits for a person on both sides: both export every version, the same bytes
    const ea = exportTeam(a.deps).text;
    expect(ea).toBe(exportTeam(b.deps).text);
    expect(ea.match(/agentctx:id=/g)?.length).toBe(2);
    // A chooses; B's import of A's file takes the choice and the conflict goes there too
    const key = /agentctx:id=(\S+)/.exec(ea)![1]!;
    a.setNow('2026-03-04T09:00:00Z');
    chooseVersion(a.deps, key, '1');
    const chosen = exportTeam(a.deps).text;
    expect(chosen.match(/agentctx:id=/g)?.length).toBe(1);
    importTeam(b.deps, chosen);
    expect(listTeamConflicts(b.db, P)).toEqual([]);
    expect(exportTeam(b.deps).text).toBe(chosen);
  });

  it('a block added by hand under a section is created once and gets its marker at the next export', () => {
    const a = store();
    decision(a, 'Existing', 'Here.');
    const text = `${exportTeam(a.deps).text}\n### Use UTC everywhere\n\nStore and log times in UTC.\n`;
    const r = importTeam(a.deps, text);
    expect(r.created.map((c) => c.title)).toEqual(['Use UTC everywhere']);
    expect(importTeam(a.deps, text).created).toEqual([]);
    const out = exportTeam(a.deps).text;
    expect(out).toMatch(/agentctx:id=\S+ type=decision[^\n]*\n### Use UTC everywhere/);
  });

  it('a profile fact of the same key is the same record, not a second current one', () => {
    const a = store();
    createRecord(a.deps, {
      type: 'profile',
      title: 'profile: stack',
      body: 'TypeScript',
      confidence: 'explicit',
      source: 'hook_observation',
    });
    const text = exportTeam(a.deps).text;
    const b = store('2026-03-01T08:00:00Z');
    const mine = createRecord(b.deps, {
      type: 'profile',
      title: 'profile: stack',
      body: 'TypeScript',
      confidence: 'explicit',
      source: 'hook_observation',
    });
    const r = importTeam(b.deps, text);
    expect(r.linked.map((l) => l.id)).toEqual([mine.id]);
    expect(current(b.db, P).length).toBe(1);
  });

  it('clones that found one fact apart (other dates) converge on one file, whichever exports first', () => {
    for (const aFirst of [true, false]) {
      const a = store(aFirst ? '2026-03-01T08:00:00Z' : '2026-03-01T09:00:00Z');
      const b = store(aFirst ? '2026-03-01T09:00:00Z' : '2026-03-01T08:00:00Z');
      for (const s of [a, b]) {
        createRecord(s.deps, {
          type: 'profile',
          title: 'profile: name',
          body: 'shop',
          confidence: 'explicit',
          source: 'hook_observation',
        });
      }
      const fa = exportTeam(a.deps).text;
      importTeam(b.deps, fa);
      const fb = exportTeam(b.deps).text;
      importTeam(a.deps, fb);
      const fa2 = exportTeam(a.deps).text;
      expect(fa2).toBe(fb);
      expect(fa2).toContain('valid_from=2026-03-01T08:00:00.000Z');
      importTeam(b.deps, fa2);
      expect(exportTeam(b.deps).text).toBe(fa2);
      expect(countRecords(a.db)).toBe(1);
      expect(countRecords(b.db)).toBe(1);
    }
  });

  it('export refuses to drop what the file holds and this store has not imported', () => {
    const a = store();
    decision(a, 'Mine', 'Mine.');
    const text = exportTeam(a.deps).text;
    expect(hasPending(pendingInFile(a.db, P, text))).toBe(false);
    const teammate = `${text}\n<!-- agentctx:id=01ZZZZZZZZZZZZZZZZZZZZZZZZ type=decision valid_from=2026-03-09T00:00:00.000Z confidence=explicit -->\n### Theirs\n\nTheirs.\n`;
    const p = pendingInFile(a.db, P, teammate);
    expect(p.incoming.map((i) => i.title)).toEqual(['Theirs']);
    const removed = pendingInFile(a.db, P, text.replace(/<!-- agentctx[\s\S]*$/, ''));
    expect(removed.removed.map((r) => r.title)).toEqual(['Mine']);
  });

  it('secrets stored before the gate do not leave in the file', () => {
    const a = store();
    const rec = decision(a, 'Deploy key handling', 'Deploy with the key from the vault.');
    const token = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
    a.db
      .prepare('UPDATE records SET body = ? WHERE id = ?')
      .run(`Old note: token ${token} used once.`, rec.id);
    const res = exportTeam(a.deps);
    expect(res.text).not.toContain(token);
    expect(res.text).toContain('[REDACTED:');
    expect(res.redacted.count).toBe(1);
  });
});
