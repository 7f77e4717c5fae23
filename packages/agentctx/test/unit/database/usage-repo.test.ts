import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { foldJournalFile } from '../../../src/database/journal-fold.js';
import { type Db, openDb } from '../../../src/database/open.js';
import { addShown, setVerdict, type Verdict } from '../../../src/database/usage-repo.js';
import { appendJournal, parseJournal } from '../../../src/files/session-journal.js';
import { tempDir } from '../../support/tmp.js';

let tmp: ReturnType<typeof tempDir>;
let db: Db;
beforeEach(() => {
  tmp = tempDir('agentctx-usage-repo-');
  db = openDb(join(tmp.path, 'agentctx.db'));
});
afterEach(() => {
  db.close();
  tmp.cleanup();
});

const at = '2026-12-01T10:00:00.000Z';

function usage(id: string) {
  return db
    .prepare('SELECT shown_count, used_count, contradicted_count FROM record_usage WHERE record_id = ?')
    .get(id) as { shown_count: number; used_count: number; contradicted_count: number } | undefined;
}

describe('record_usage stays equal to what session_shown says', () => {
  it('under any sequence of showings and (re)judgings', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('show' as const), s: fc.nat(3), r: fc.nat(3) }),
      fc.record({
        kind: fc.constant('judge' as const),
        s: fc.nat(3),
        r: fc.nat(3),
        v: fc.constantFrom<Verdict>('used', 'unused', 'contradicted'),
      }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        db.exec('DELETE FROM session_shown; DELETE FROM record_usage;');
        for (const o of ops) {
          if (o.kind === 'show') addShown(db, `s${o.s}`, [`r${o.r}`], 'prompt', 10, at);
          else setVerdict(db, `s${o.s}`, `r${o.r}`, o.v, o.v, at);
        }
        for (let r = 0; r < 4; r++) {
          const rows = db.prepare('SELECT verdict FROM session_shown WHERE record_id = ?').all(`r${r}`) as {
            verdict: string | null;
          }[];
          const u = usage(`r${r}`);
          if (rows.length === 0) {
            expect(u).toBeUndefined();
            continue;
          }
          expect(u).toEqual({
            shown_count: rows.length,
            used_count: rows.filter((x) => x.verdict === 'used').length,
            contradicted_count: rows.filter((x) => x.verdict === 'contradicted').length,
          });
        }
      }),
      { seed: 1811, numRuns: 150 },
    );
  });

  it('a journal line keeps its record ids and how they were shown; folding it twice counts them once', () => {
    const dir = join(tmp.path, 'journal');
    const file = join(dir, 's1.jsonl');
    appendJournal(file, {
      kind: 'tokens',
      sessionId: 's1',
      projectId: 'p',
      tokens: 90,
      at,
      ids: ['a', 'b', 'c'],
      via: 'digest',
    });
    appendJournal(file, { kind: 'tokens', sessionId: 's1', projectId: 'p', tokens: 40, at });
    const [first, second] = parseJournal(readFileSync(file, 'utf8'));
    expect(first).toMatchObject({ ids: ['a', 'b', 'c'], via: 'digest', tokens: 90 });
    expect(second).not.toHaveProperty('ids');
    foldJournalFile(db, dir, 's1.jsonl', { now: new Date(at) });
    foldJournalFile(db, dir, 's1.jsonl', { now: new Date(at) });
    const rows = db.prepare('SELECT record_id, via, tokens FROM session_shown ORDER BY record_id').all();
    expect(rows).toEqual([
      { record_id: 'a', via: 'digest', tokens: 30 },
      { record_id: 'b', via: 'digest', tokens: 30 },
      { record_id: 'c', via: 'digest', tokens: 30 },
    ]);
    expect(usage('a')).toEqual({ shown_count: 1, used_count: 0, contradicted_count: 0 });
  });

  it('an unknown via or a non-string id in a line is not taken as it stands', () => {
    const line = JSON.stringify({ s: 's', p: 'p', t: 5, at, r: ['x', 3, '', 'x'], v: 'elsewhere' });
    expect(parseJournal(`${line}\n`)[0]).toMatchObject({ ids: ['x'], via: 'prompt' });
  });
});
