import { appendFileSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldAllJournals, foldJournalFile, journalBehind } from '../../../src/database/journal-fold.js';
import { type Db, openDb } from '../../../src/database/open.js';
import { appendJournal, journalCwd, parseJournal } from '../../../src/files/session-journal.js';
import { tempDir } from '../../support/tmp.js';
import { lockProbe } from '../../support/write-lock.js';

let tmp: ReturnType<typeof tempDir>;
let db: Db;
let dir: string;
beforeEach(() => {
  tmp = tempDir('agentctx-journal-');
  db = openDb(join(tmp.path, 'agentctx.db'));
  dir = join(tmp.path, 'journal');
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

const now = new Date('2025-06-01T12:00:00.000Z');
const at = now.toISOString();

function tokensOf(sessionId: string): number | undefined {
  const row = db.prepare('SELECT tokens_injected FROM sessions WHERE session_id = ?').get(sessionId) as
    | { tokens_injected: number }
    | undefined;
  return row?.tokens_injected;
}

type Step =
  | { op: 'append'; session: number; tokens: number }
  | { op: 'cwd'; session: number; dir: number }
  | { op: 'torn'; session: number; tokens: number; cut: number }
  | { op: 'fold'; all: boolean };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('append' as const),
      session: fc.nat(2),
      tokens: fc.integer({ min: 1, max: 2000 }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('cwd' as const), session: fc.nat(2), dir: fc.nat(3) }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('torn' as const),
      session: fc.nat(2),
      tokens: fc.integer({ min: 1, max: 2000 }),
      cut: fc.integer({ min: 1, max: 30 }),
    }),
  },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('fold' as const), all: fc.boolean() }) },
);

describe('folding the session journal', () => {
  it('counts every whole line exactly once, however often and whenever it folds', () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        rmSync(dir, { recursive: true, force: true });
        db.exec('DELETE FROM sessions; DELETE FROM session_journal;');
        const want = [0, 0, 0];
        const cwd: (string | null)[] = [null, null, null];
        const file = (s: number) => join(dir, `s${s}.jsonl`);
        const pending = new Map<number, string>(); // the rest of a line whose write was cut short
        for (const st of steps) {
          if (st.op === 'fold') {
            if (st.all) foldAllJournals(db, dir, { now });
            else for (let s = 0; s < 3; s++) foldJournalFile(db, dir, `s${s}.jsonl`, { now });
            continue;
          }
          // a line cut short is finished by its writer before anything else is appended
          const rest = pending.get(st.session);
          if (rest !== undefined) {
            appendFileSync(file(st.session), rest);
            pending.delete(st.session);
          }
          if (st.op === 'cwd') {
            appendJournal(file(st.session), {
              kind: 'cwd',
              sessionId: `s${st.session}`,
              cwd: `/w/${st.dir}`,
              at,
            });
            cwd[st.session] = `/w/${st.dir}`;
          } else {
            const line = `${JSON.stringify({ s: `s${st.session}`, p: 'p1', t: st.tokens, at })}\n`;
            want[st.session]! += st.tokens;
            if (st.op === 'append')
              appendJournal(file(st.session), {
                kind: 'tokens',
                sessionId: `s${st.session}`,
                projectId: 'p1',
                tokens: st.tokens,
                at,
              });
            else {
              const cut = Math.min(st.cut, line.length - 1);
              mkdirSync(dir, { recursive: true });
              appendFileSync(file(st.session), line.slice(0, cut));
              pending.set(st.session, line.slice(cut));
            }
          }
        }
        for (const [s, rest] of pending) appendFileSync(file(s), rest);
        foldAllJournals(db, dir, { now });
        foldAllJournals(db, dir, { now }); // and once more: nothing new
        for (let s = 0; s < 3; s++) {
          const hasLines = want[s]! > 0 || cwd[s] !== null;
          expect(tokensOf(`s${s}`)).toBe(hasLines ? want[s] : undefined);
          if (cwd[s]) {
            const row = db.prepare('SELECT cwd FROM sessions WHERE session_id = ?').get(`s${s}`) as {
              cwd: string;
            };
            expect(row.cwd).toBe(cwd[s]);
            expect(journalCwd(file(s), `s${s}`)).toBe(cwd[s]);
          }
          expect(journalBehind(db, dir, `s${s}.jsonl`)).toBe(false);
        }
      }),
      { seed: 4242, numRuns: 120 },
    );
  });

  it('reads a file deleted and written anew from its start', () => {
    const f = join(dir, 'a.jsonl');
    appendJournal(f, { kind: 'tokens', sessionId: 'a', projectId: 'p1', tokens: 500, at });
    appendJournal(f, { kind: 'tokens', sessionId: 'a', projectId: 'p1', tokens: 500, at });
    foldJournalFile(db, dir, 'a.jsonl', { now });
    expect(tokensOf('a')).toBe(1000);
    rmSync(f);
    // a new file as long as the folded part of the old one: same name, likely the same inode
    appendJournal(f, { kind: 'tokens', sessionId: 'a', projectId: 'p1', tokens: 700, at });
    appendJournal(f, { kind: 'tokens', sessionId: 'a', projectId: 'p1', tokens: 300, at });
    expect(journalBehind(db, dir, 'a.jsonl')).toBe(true);
    foldJournalFile(db, dir, 'a.jsonl', { now });
    expect(tokensOf('a')).toBe(2000);
  });

  it('skips garbage lines, recovers a line glued to a torn one, and leaves an unfinished line', () => {
    const f = join(dir, 'g.jsonl');
    mkdirSync(dir, { recursive: true });
    const good = (t: number) => JSON.stringify({ s: 'g', p: 'p1', t, at });
    writeFileSync(
      f,
      [
        'not json',
        JSON.stringify({ s: 'g', p: 'p1', t: -5, at }),
        JSON.stringify({ s: 'g', p: 'p1', t: 1e9, at }),
        JSON.stringify({ s: '', p: 'p1', t: 5, at }),
        `{"s":"g","p":"p1","t":4${good(10)}`, // a torn line with the next one glued on
        good(20),
        good(40).slice(0, 12), // still being written
      ].join('\n'),
    );
    expect(parseJournal('x\n').length).toBe(0);
    foldJournalFile(db, dir, 'g.jsonl', { now });
    expect(tokensOf('g')).toBe(30);
    appendFileSync(f, `${good(40).slice(12)}\n`);
    foldJournalFile(db, dir, 'g.jsonl', { now });
    expect(tokensOf('g')).toBe(70);
  });

  it('folds each file with something new in its own transaction, lets the lock go between two, and takes none for the others', () => {
    const probe = lockProbe(join(tmp.path, 'agentctx.db'));
    const takes = probe.takes;
    try {
      fc.assert(
        fc.property(
          fc.array(fc.nat(7), { minLength: 1, maxLength: 12 }),
          fc.array(fc.nat(7), { maxLength: 4 }),
          (sessions, again) => {
            rmSync(dir, { recursive: true, force: true });
            db.transaction(() => db.exec('DELETE FROM session_journal; DELETE FROM sessions'))();
            for (const k of sessions)
              appendJournal(join(dir, `s${k}.jsonl`), {
                kind: 'tokens',
                sessionId: `s${k}`,
                projectId: 'p1',
                tokens: 1,
                at,
              });
            const files = new Set(sessions).size;
            const pauses: number[] = [];
            const sleep = (ms: number) => {
              expect(db.inTransaction).toBe(false);
              expect(takes()).toBe(true); // the lock is free in a pause
              pauses.push(ms);
            };
            let r = foldAllJournals(db, dir, { now, sleep });
            expect(r).toMatchObject({ files, lines: sessions.length, tokens: sessions.length });
            expect(pauses).toEqual(Array(files - 1).fill(25));
            // nothing new: no transaction at all, every file still counted
            pauses.length = 0;
            const before = db.prepare('SELECT total_changes() AS c').get() as { c: number };
            r = foldAllJournals(db, dir, { now, sleep });
            expect(r).toMatchObject({ files, lines: 0, tokens: 0 });
            expect(pauses).toEqual([]);
            expect(db.prepare('SELECT total_changes() AS c').get()).toEqual(before);
            // some files grow: only they are folded, with a pause between two
            for (const k of again)
              appendJournal(join(dir, `s${k}.jsonl`), {
                kind: 'tokens',
                sessionId: `s${k}`,
                projectId: 'p1',
                tokens: 2,
                at,
              });
            const grown = new Set(again).size;
            r = foldAllJournals(db, dir, { now, sleep });
            expect(r).toMatchObject({ files: new Set([...sessions, ...again]).size, lines: again.length });
            expect(pauses).toHaveLength(Math.max(0, grown - 1));
            for (const k of new Set([...sessions, ...again]))
              expect(tokensOf(`s${k}`)).toBe(
                sessions.filter((x) => x === k).length + 2 * again.filter((x) => x === k).length,
              );
          },
        ),
        { seed: 1203, numRuns: 40 },
      );
    } finally {
      probe.close();
    }
  });

  it('consolidation removes files folded to their end and idle for days; nothing is lost', () => {
    const old = join(dir, 'old.jsonl');
    const fresh = join(dir, 'fresh.jsonl');
    appendJournal(old, { kind: 'tokens', sessionId: 'old', projectId: 'p1', tokens: 100, at });
    appendJournal(fresh, { kind: 'tokens', sessionId: 'fresh', projectId: 'p1', tokens: 50, at });
    const longAgo = new Date(now.getTime() - 10 * 86_400_000);
    utimesSync(old, longAgo, longAgo);
    const cutoff = new Date(now.getTime() - 7 * 86_400_000);
    // not folded yet: folded first, then removed in the same pass
    const r = foldAllJournals(db, dir, { now, removeUntouchedBefore: cutoff });
    expect(r).toMatchObject({ files: 2, lines: 2, tokens: 150, removed: 1 });
    expect(tokensOf('old')).toBe(100);
    expect(tokensOf('fresh')).toBe(50);
    expect(db.prepare('SELECT file FROM session_journal ORDER BY file').all()).toEqual([
      { file: 'fresh.jsonl' },
    ]);
    // the session resumed later writes a new file, counted from its start
    appendJournal(old, { kind: 'tokens', sessionId: 'old', projectId: 'p1', tokens: 7, at });
    foldAllJournals(db, dir, { now, removeUntouchedBefore: cutoff });
    expect(tokensOf('old')).toBe(107);
  });

  it('the cwd of a session is its last change, other sessions in a shared file ignored', () => {
    const f = join(dir, 'shared.jsonl');
    appendJournal(f, { kind: 'cwd', sessionId: 'x', cwd: '/one', at });
    appendJournal(f, { kind: 'cwd', sessionId: 'x', cwd: '/two "cwd": tricky', at });
    appendJournal(f, { kind: 'cwd', sessionId: 'y', cwd: '/other', at });
    appendJournal(f, { kind: 'tokens', sessionId: 'x', projectId: 'p1', tokens: 3, at });
    expect(journalCwd(f, 'x')).toBe('/two "cwd": tricky');
    expect(journalCwd(f, 'y')).toBe('/other');
    expect(journalCwd(f, 'z')).toBeNull();
    expect(journalCwd(join(dir, 'missing.jsonl'), 'x')).toBeNull();
  });
});
