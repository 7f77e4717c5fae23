import { appendFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord, type RecordsDeps } from '../../../src/core/records/records.js';
import { resetNamespace } from '../../../src/core/records/reset.js';
import { type Db, openDb } from '../../../src/database/open.js';
import {
  counterFiles,
  equaliseStaleCounters,
  readRetirementCounters,
  STALE_RETIREMENT_MS,
} from '../../../src/database/retirement.js';
import { tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let db: Db;
let path: string;
let deps: RecordsDeps;

beforeEach(() => {
  t = tempDir();
  path = join(t.path, 'agentctx.db');
  db = openDb(path);
  deps = { db, clock: () => new Date('2026-12-01T00:00:00Z'), newId: monotonicFactory(), projectId: 'p' };
});
afterEach(() => {
  db.close();
  t.cleanup();
});

const add = (title: string) =>
  createRecord(deps, { type: 'decision', title, body: `${title}.`, source: 'cli', confidence: 'explicit' });
const counters = () => readRetirementCounters(path);
const retire = (id: string) =>
  db
    .prepare("UPDATE records SET superseded_at = '2026-12-01' WHERE id = ? AND superseded_at IS NULL")
    .run(id);

describe('retirement counters', () => {
  it('move only when a transaction retires a current record, once per transaction', () => {
    const a = add('a');
    const b = add('b');
    expect(counters()).toEqual({ begun: 0, done: 0 });
    db.transaction(() => db.prepare('UPDATE records SET pinned = 1 WHERE id = ?').run(a.id))();
    expect(counters()).toEqual({ begun: 0, done: 0 });
    db.transaction(() => {
      retire(a.id);
      db.transaction(() => retire(b.id))(); // nested: a savepoint of the same transaction
    }).immediate();
    expect(counters()).toEqual({ begun: 1, done: 1 });
    db.transaction(() => retire(a.id))(); // already retired: the trigger does not fire
    expect(counters()).toEqual({ begun: 1, done: 1 });
  });

  it('count a rolled-back retirement as begun and done, and nothing is retired', () => {
    const a = add('a');
    expect(() =>
      db.transaction(() => {
        retire(a.id);
        throw new Error('changed my mind');
      })(),
    ).toThrow('changed my mind');
    expect(counters()).toEqual({ begun: 1, done: 1 });
    expect(db.prepare('SELECT superseded_at FROM records WHERE id = ?').get(a.id)).toEqual({
      superseded_at: null,
    });
  });

  it('refuse a retirement outside a transaction of ours, and nothing changes', () => {
    const a = add('a');
    expect(() => retire(a.id)).toThrow(/outside a transaction/);
    db.exec('BEGIN');
    expect(() => db.transaction(() => retire(a.id))()).toThrow(/outside a transaction/);
    db.exec('ROLLBACK');
    expect(() => db.prepare('DELETE FROM records WHERE id = ?').run(a.id)).toThrow(/outside a transaction/);
    expect(db.prepare('SELECT superseded_at FROM records WHERE id = ?').get(a.id)).toEqual({
      superseded_at: null,
    });
    expect(counters()).toEqual({ begun: 0, done: 0 });
  });

  it('count deleting current records (reset), not deleting history', () => {
    add('a');
    resetNamespace(db, 'p');
    expect(counters()).toEqual({ begun: 1, done: 1 });
    resetNamespace(db, 'p'); // nothing left to delete
    expect(counters()).toEqual({ begun: 1, done: 1 });
  });

  it('are shared by every connection to the store', () => {
    const a = add('a');
    const other = openDb(path);
    try {
      other.transaction(() =>
        other.prepare("UPDATE records SET superseded_at = 'x' WHERE id = ?").run(a.id),
      )();
    } finally {
      other.close();
    }
    expect(counters()).toEqual({ begun: 1, done: 1 });
  });
});

describe('equaliseStaleCounters', () => {
  const age = (ms: number) => {
    const when = new Date(Date.now() - ms);
    for (const f of Object.values(counterFiles(path))) utimesSync(f, when, when);
  };

  it('leaves a fresh mismatch alone (a writer may be in flight) and repairs a stale one', () => {
    const a = add('a');
    db.transaction(() => retire(a.id))();
    appendFileSync(counterFiles(path).begun, '.'); // a writer killed between its two appends
    expect(counters()).toEqual({ begun: 2, done: 1 });
    expect(equaliseStaleCounters(path, Date.now())).toEqual({ begun: 0, done: 0 });
    age(STALE_RETIREMENT_MS + 1000);
    expect(equaliseStaleCounters(path, Date.now())).toEqual({ begun: 0, done: 1 });
    expect(counters()).toEqual({ begun: 2, done: 2 });
  });

  it('raises begun at once when a resumed writer pushed done past it', () => {
    const a = add('a');
    db.transaction(() => retire(a.id))();
    appendFileSync(counterFiles(path).done, '.');
    expect(counters()).toEqual({ begun: 1, done: 2 });
    expect(equaliseStaleCounters(path, Date.now())).toEqual({ begun: 1, done: 0 });
    expect(counters()).toEqual({ begun: 2, done: 2 });
  });
});
