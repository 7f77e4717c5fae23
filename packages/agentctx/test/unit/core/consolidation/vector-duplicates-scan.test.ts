import { describe, expect, it } from 'vitest';
import {
  scanVectorDuplicates,
  VECTOR_NEAR_DUPLICATE,
} from '../../../../src/core/consolidation/vector-duplicates.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { createJsVectorStore } from '../../../../src/database/vectors/js-store.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

// deterministic pseudo-random unit vectors, some of them near copies of an earlier one
function rng(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32 - 0.5;
  };
}

function unit(v: Float32Array): Float32Array {
  let n = 0;
  for (const x of v) n += x * x;
  const k = 1 / Math.sqrt(n);
  for (let i = 0; i < v.length; i++) v[i]! *= k;
  return v;
}

const DIMS = 384;

function fixture(n: number) {
  const dir = tempDir();
  const s = testStore(dir.path, 'p1');
  const store = createJsVectorStore(s.db, DIMS);
  const rand = rng(7);
  const vecs: Float32Array[] = [];
  const ids: string[] = [];
  const types: string[] = [];
  for (let i = 0; i < n; i++) {
    s.setNow(new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString());
    const type = i % 3 === 0 ? 'decision' : 'discovery';
    const id = createRecord(s.deps, {
      type,
      title: `note ${i}`,
      body: `body ${i}`,
      source: 'cli',
      confidence: 'explicit',
    }).id;
    let v: Float32Array;
    // every seventh record is a slightly perturbed copy of one 3 or 6 records back
    if (i % 7 === 6 && i >= 6) {
      const base = vecs[i - (i % 2 ? 3 : 6)]!;
      v = unit(Float32Array.from(base, (x) => x + rand() * 0.01));
    } else v = unit(Float32Array.from({ length: DIMS }, rand));
    store.upsert(id, v);
    vecs.push(v);
    ids.push(id);
    types.push(type);
  }
  s.db.prepare('UPDATE records SET pending_embedding = 0').run();
  // the reference: every same-type pair above the threshold, by plain cosine
  const expected = new Set<string>();
  for (let i = 0; i < n; i++)
    for (let j = 0; j < i; j++) {
      if (types[i] !== types[j]) continue;
      let dot = 0;
      for (let k = 0; k < DIMS; k++) dot += vecs[i]![k]! * vecs[j]![k]!;
      if (dot > VECTOR_NEAR_DUPLICATE) expected.add(`${ids[j]}|${ids[i]}`);
    }
  return { dir, s, store, expected };
}

const pairsOf = (s: ReturnType<typeof testStore>) =>
  new Set(
    (
      s.db.prepare("SELECT record_a, record_b FROM merge_candidates WHERE status = 'open'").all() as {
        record_a: string;
        record_b: string;
      }[]
    ).map((p) => `${p.record_a}|${p.record_b}`),
  );

describe('vector near-duplicate scan (in-memory blockwise)', () => {
  it('finds exactly the same-type pairs above 0.92, oldest record first', () => {
    const { dir, s, store, expected } = fixture(450);
    try {
      expect(expected.size).toBeGreaterThan(20);
      const out = scanVectorDuplicates({
        db: s.db,
        store,
        projectId: 'p1',
        namespaces: ['p1', '_global'],
        nowIso: '2026-12-01T00:00:00Z',
        elapsed: () => 0,
        budgetMs: 10_000,
      });
      expect(out).toEqual({ found: expected.size, outcome: 'done' });
      expect(pairsOf(s)).toEqual(expected);
    } finally {
      s.db.close();
      dir.cleanup();
    }
  });

  it('stops at the time box after a committed batch and resumes from the watermark', () => {
    const { dir, s, store, expected } = fixture(450);
    try {
      let calls = 0;
      const base = {
        db: s.db,
        store,
        projectId: 'p1',
        namespaces: ['p1', '_global'],
        nowIso: '2026-12-01T00:00:00Z',
        budgetMs: 100,
      };
      // over budget from the second batch on: one batch of 200 committed
      const first = scanVectorDuplicates({ ...base, elapsed: () => (calls++ === 0 ? 0 : 1_000) });
      expect(first.outcome).toBe('time');
      const partial = pairsOf(s);
      expect(partial.size).toBeGreaterThan(0);
      expect(partial.size).toBeLessThan(expected.size);
      const mark = s.db.prepare("SELECT value FROM embedding_meta WHERE key = 'vec_dup_after:p1'").get() as {
        value: string;
      };
      expect(mark.value).toMatch(/\|/);
      const second = scanVectorDuplicates({ ...base, elapsed: () => 0 });
      expect(second.outcome).toBe('done');
      expect(pairsOf(s)).toEqual(expected);
      // a third run has nothing past the watermark
      expect(scanVectorDuplicates({ ...base, elapsed: () => 0 })).toEqual({ found: 0, outcome: 'done' });
    } finally {
      s.db.close();
      dir.cleanup();
    }
  });
});
