import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../src/core/records/records.js';
import type { Db } from '../../../src/database/open.js';
import { createJsVectorStore } from '../../../src/database/vectors/js-store.js';
import { ensureSignature, loadSqliteVec } from '../../../src/database/vectors/open.js';
import { createSqliteVecStore } from '../../../src/database/vectors/sqlite-vec-store.js';
import type { VectorStore } from '../../../src/database/vectors/store.js';
import { testStore } from '../../support/store.js';
import { tempDir } from '../../support/tmp.js';

const DIMS = 8;

/** A unit vector pointing mostly along axis `i`, tilted by `tilt` towards axis i+1. */
function vec(i: number, tilt = 0): Float32Array {
  const v = new Float32Array(DIMS);
  v[i % DIMS] = 1;
  v[(i + 1) % DIMS] = tilt;
  const n = Math.hypot(...v);
  return v.map((x) => x / n);
}

type Factory = (db: Db) => Promise<VectorStore>;

const factories: [string, Factory][] = [
  ['js', async (db) => createJsVectorStore(db, DIMS)],
  [
    'sqlite-vec',
    async (db) => {
      const reason = await loadSqliteVec(db);
      // sqlite-vec is installed in this project: the contract must really run against vec0
      expect(reason).toBeNull();
      return createSqliteVecStore(db, DIMS);
    },
  ],
];

describe.each(factories)('VectorStore contract: %s', (kind, factory) => {
  let dir: ReturnType<typeof tempDir>;
  let s: ReturnType<typeof testStore>;
  let store: VectorStore;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    dir = tempDir();
    s = testStore(dir.path, 'p1');
    store = await factory(s.db);
    const mk = (key: string, type: string, projectId = 'p1') => {
      const rec = createRecord(
        { ...s.deps, projectId },
        { type, title: `${key} title`, body: `${key} body text`, source: 'cli', confidence: 'explicit' },
      );
      ids[key] = rec.id;
    };
    mk('a', 'decision');
    mk('b', 'decision');
    mk('c', 'convention');
    mk('other', 'decision', 'p2');
  });
  afterEach(() => {
    s.db.close();
    dir.cleanup();
  });

  it('has its kind and dimensions', () => {
    expect(store.kind).toBe(kind);
    expect(store.dims).toBe(DIMS);
  });

  it('round-trips a vector and replaces it on upsert', () => {
    store.upsert(ids.a!, vec(0, 0.5));
    expect(Array.from(store.get(ids.a!)!)).toEqual(Array.from(vec(0, 0.5)));
    store.upsert(ids.a!, vec(3));
    expect(Array.from(store.get(ids.a!)!)).toEqual(Array.from(vec(3)));
    expect(store.count()).toBe(1);
    expect(store.get(ids.b!)).toBeUndefined();
  });

  it('rejects a vector of the wrong size', () => {
    expect(() => store.upsert(ids.a!, new Float32Array(DIMS + 1))).toThrow(/dimensions/);
    expect(() => store.search(new Float32Array(3), 5, { projectIds: ['p1'] })).toThrow(/dimensions/);
  });

  it('orders by cosine similarity, exactly', () => {
    store.upsert(ids.a!, vec(0));
    store.upsert(ids.b!, vec(0, 1));
    store.upsert(ids.c!, vec(4));
    const hits = store.search(vec(0), 10, { projectIds: ['p1'] });
    expect(hits.map((h) => h.id)).toEqual([ids.a, ids.b, ids.c]);
    expect(hits[0]!.similarity).toBeCloseTo(1, 5);
    expect(hits[1]!.similarity).toBeCloseTo(Math.SQRT1_2, 5);
    expect(hits[2]!.similarity).toBeCloseTo(0, 5);
    expect(store.search(vec(0), 1, { projectIds: ['p1'] }).map((h) => h.id)).toEqual([ids.a]);
  });

  it('filters by namespace, type and excluded ids', () => {
    for (const k of ['a', 'b', 'c', 'other']) store.upsert(ids[k]!, vec(0));
    const all = (f: Parameters<VectorStore['search']>[2]) =>
      store
        .search(vec(0), 10, f)
        .map((h) => h.id)
        .sort();
    expect(all({ projectIds: ['p1'] })).toEqual([ids.a, ids.b, ids.c].sort());
    expect(all({ projectIds: ['p2'] })).toEqual([ids.other]);
    expect(all({ projectIds: ['p1'], types: ['convention'] })).toEqual([ids.c]);
    expect(all({ projectIds: ['p1'], types: ['decision'], excludeIds: [ids.a!] })).toEqual([ids.b]);
    expect(all({ projectIds: [] })).toEqual([]);
  });

  it('never returns superseded records, and prune drops their vectors', () => {
    store.upsert(ids.a!, vec(0));
    store.upsert(ids.b!, vec(1));
    const next = supersedeRecord(s.deps, ids.a!, {
      body: 'a body, revised',
      rationale: 'changed',
      source: 'cli',
    }).record;
    expect(store.search(vec(0), 10, { projectIds: ['p1'] }).map((h) => h.id)).toEqual([ids.b]);
    expect(store.prune()).toBe(1);
    expect(store.get(ids.a!)).toBeUndefined();
    expect(store.count()).toBe(1);
    expect(next.pending_embedding).toBe(1);
  });

  it('remove and clear', () => {
    store.upsert(ids.a!, vec(0));
    store.upsert(ids.b!, vec(1));
    store.remove(ids.a!);
    expect(store.count()).toBe(1);
    store.clear();
    expect(store.count()).toBe(0);
    store.upsert(ids.c!, vec(2));
    expect(store.search(vec(2), 3, { projectIds: ['p1'] }).map((h) => h.id)).toEqual([ids.c]);
  });

  it('a model change clears the vectors and marks every record pending again', () => {
    s.db.prepare('UPDATE records SET pending_embedding = 0').run();
    expect(ensureSignature(s.db, store, 'model-a')).toBe(true);
    s.db.prepare('UPDATE records SET pending_embedding = 0').run();
    store.upsert(ids.a!, vec(0));
    expect(ensureSignature(s.db, store, 'model-a')).toBe(false);
    expect(store.count()).toBe(1);
    expect(ensureSignature(s.db, store, 'model-b')).toBe(true);
    expect(store.count()).toBe(0);
    const pending = s.db.prepare('SELECT COUNT(*) AS n FROM records WHERE pending_embedding = 1').get() as {
      n: number;
    };
    expect(pending.n).toBe(4);
  });
});
