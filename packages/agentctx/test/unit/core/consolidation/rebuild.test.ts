import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { dismissPair, mergePair } from '../../../../src/core/consolidation/merge-pair.js';
import { type ConsolidateDeps, consolidate } from '../../../../src/core/consolidation/run.js';
import { createRecord, type RecordsDeps } from '../../../../src/core/records/records.js';
import { listMergeCandidates } from '../../../../src/database/consolidation-repo.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import { createJsVectorStore } from '../../../../src/database/vectors/js-store.js';
import type { VectorStore } from '../../../../src/database/vectors/store.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * CONTRACTS.md §inv-7 for merge candidates: the list is derived (the near-duplicate scans found it)
 * and must come back when deleted; the developer's dismissals are ground truth and must survive
 * that, so a rebuilt list never proposes a dismissed pair again.
 */

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const PROJECT = 'proj-rb';
const NOW = new Date('2026-11-30T12:00:00Z');
const SYL = ['ka', 'lo', 'mi', 'ren', 'tus', 'vo', 'zel', 'pra', 'dun', 'fi', 'gor', 'hem', 'jax', 'qui'];
const w = (n: number) => `${SYL[n % 14]}${SYL[Math.floor(n / 14) % 14]}${SYL[Math.floor(n / 196) % 14]}q`;
const words = (i: number, k: number, from: number) =>
  Array.from({ length: k }, (_, j) => w(i * 37 + from + j * 5 + 3)).join(' ');
const DIMS = 16;

/** A pseudo-random unit vector per seed; `jitter` moves it slightly (a near copy stays > 0.92). */
function unitVec(seed: number, jitter = 0): Float32Array {
  let x = (seed * 2654435761) >>> 0;
  const next = () => {
    x = (x * 1664525 + 1013904223) >>> 0;
    return x / 2 ** 32 - 0.5;
  };
  const v = Float32Array.from({ length: DIMS }, (_, i) => next() + jitter * Math.cos(i));
  const n = Math.hypot(...v);
  return v.map((e) => e / n);
}

function scene() {
  const db = openDb(join(t.path, 'agentctx.db'));
  let n = 0;
  let now = NOW;
  const newId = () => `01JRB${String(++n).padStart(21, '0')}`;
  const deps: RecordsDeps = { db, clock: () => now, newId, projectId: PROJECT, reinforceThreshold: 3 };
  const vectors = createJsVectorStore(db, DIMS);
  for (let i = 0; i < 12; i++) {
    now = new Date(NOW.getTime() - (100 - i) * 86_400_000);
    const a = createRecord(deps, {
      type: 'bugfix',
      title: `Fix ${words(i, 2, 0)} crash`,
      body: `Guard ${words(i, 5, 20)}.`,
      source: 'cli',
      confidence: 'explicit',
    });
    vectors.upsert(a.id, unitVec(i));
    if (i % 3 === 0) {
      // a paraphrase of the same fix: a keyword near duplicate
      const b = createRecord(deps, {
        type: 'bugfix',
        title: `Fixed the ${words(i, 2, 0)} crash`,
        body: `Guarded ${words(i, 5, 20)} there.`,
        source: 'cli',
        confidence: 'explicit',
      });
      vectors.upsert(b.id, unitVec(i, 0.05));
    }
    if (i % 4 === 1) {
      // different words, the same meaning by the vectors: a vector near duplicate only
      const c = createRecord(deps, {
        type: 'decision',
        title: `Adopt ${words(i, 2, 60)} everywhere`,
        body: `Chosen over ${words(i, 3, 70)}.`,
        source: 'cli',
        confidence: 'explicit',
      });
      const d = createRecord(deps, {
        type: 'decision',
        title: `Standardise on ${words(i, 2, 90)}`,
        body: `Preferred to ${words(i, 3, 110)}.`,
        source: 'cli',
        confidence: 'explicit',
      });
      vectors.upsert(c.id, unitVec(100 + i));
      vectors.upsert(d.id, unitVec(100 + i, 0.05));
    }
  }
  now = NOW;
  db.prepare('UPDATE records SET pending_embedding = 0').run();
  const run = (extra: Partial<ConsolidateDeps> = {}) =>
    consolidate({
      db,
      clock: () => NOW,
      newId,
      project: { id: PROJECT, name: 'rb', root: join(t.path, 'no-repo') },
      digestsDir: join(t.path, 'digests'),
      vectors: vectors as VectorStore,
      ...extra,
    });
  return { db, deps, run, vectors };
}

const pairs = (db: Db) =>
  listMergeCandidates(db, [PROJECT, '_global'], 1000)
    .map((c) => `${c.record_a}~${c.record_b}`)
    .sort();

describe('merge candidates are rebuildable; dismissals are not derived', () => {
  it('deleting the candidate rows: the next run finds them again, without the dismissed pair', () => {
    const s = scene();
    const first = s.run();
    expect(first.finished).toBe(true);
    const all = pairs(s.db);
    // keyword pairs (4 bug fixes) and vector-only pairs (3 decisions)
    expect(all.length).toBe(7);
    const [a, b] = all[0]!.split('~') as [string, string];
    dismissPair({ db: s.db, clock: () => NOW, newId: s.deps.newId, projectId: PROJECT }, b, a);
    const want = all.slice(1);
    expect(pairs(s.db)).toEqual(want);

    s.db.prepare('DELETE FROM merge_candidates').run();
    expect(pairs(s.db)).toEqual([]);
    const again = s.run();
    expect(again.finished).toBe(true);
    expect(again.merge_candidates).toBe(want.length);
    expect(pairs(s.db)).toEqual(want);
    // settled: a further run changes nothing
    s.run();
    expect(pairs(s.db)).toEqual(want);
  });

  it('a requested rebuild (candidates and both scan watermarks reset) gives C minus the dismissed pair', () => {
    const s = scene();
    s.run();
    const all = pairs(s.db);
    const dismissed = all[all.length - 1]!;
    const [a, b] = dismissed.split('~') as [string, string];
    dismissPair({ db: s.db, clock: () => NOW, newId: s.deps.newId, projectId: PROJECT }, a, b);
    // everything derived about duplicates is gone: the rows, the run bookkeeping, the vector
    // watermark
    s.db.prepare('DELETE FROM merge_candidates').run();
    s.db.prepare('DELETE FROM consolidation_runs').run();
    s.db.prepare("DELETE FROM embedding_meta WHERE key LIKE 'vec_dup_after:%'").run();
    const rebuilt = s.run({ rebuild: true });
    expect(rebuilt.finished).toBe(true);
    expect(pairs(s.db)).toEqual(all.filter((p) => p !== dismissed));
    expect(pairs(s.db)).not.toContain(dismissed);
  });

  it('a rebuild over a watermark that outlived its rows recomputes both scans', () => {
    const s = scene();
    s.run();
    const all = pairs(s.db);
    s.db.prepare('DELETE FROM merge_candidates').run();
    // consolidation bookkeeping lost too, the vector watermark kept: still all pairs come back
    s.db.prepare('DELETE FROM consolidation_runs').run();
    s.run();
    expect(pairs(s.db)).toEqual(all);
  });

  it('a merged pair stays merged and an explicit rebuild keeps every dismissal', () => {
    const s = scene();
    s.run();
    const all = pairs(s.db);
    const m = { db: s.db, clock: () => NOW, newId: s.deps.newId, projectId: PROJECT };
    const [x, y] = all[1]!.split('~') as [string, string];
    mergePair(m, x, y);
    const [p, q] = all[2]!.split('~') as [string, string];
    dismissPair(m, p, q);
    const before = pairs(s.db);
    expect(before).toEqual(all.filter((_, i) => i !== 1 && i !== 2));
    const res = s.run({ rebuild: true });
    expect(res.rebuilt).toBe('requested');
    expect(pairs(s.db)).toEqual(before);
    expect(
      s.db.prepare('SELECT id_a, id_b FROM merge_dismissals').all() as { id_a: string; id_b: string }[],
    ).toEqual([{ id_a: p, id_b: q }]);
  });
});
