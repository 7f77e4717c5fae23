import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { backfillEmbeddings, countPending } from '../../../../src/core/consolidation/backfill.js';
import { dismissPair, mergePair } from '../../../../src/core/consolidation/merge-pair.js';
import { consolidate } from '../../../../src/core/consolidation/run.js';
import { scanVectorDuplicates } from '../../../../src/core/consolidation/vector-duplicates.js';
import { createRecord } from '../../../../src/core/records/records.js';
import { HYBRID_TUNING, hybridSearch, rrfFuse } from '../../../../src/core/retrieval/hybrid.js';
import { search } from '../../../../src/core/retrieval/search.js';
import { listMergeCandidates } from '../../../../src/database/consolidation-repo.js';
import { createJsVectorStore } from '../../../../src/database/vectors/js-store.js';
import type { Embedder } from '../../../../src/embed/embedder.js';
import { MODELS } from '../../../../src/embed/models.js';
import { loadTransformersEmbedder } from '../../../../src/embed/transformers.js';
import { FIXTURE_MODELS } from '../../../support/models.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';

let embedder: Embedder;
let loads = 0;
const load = async () => {
  loads++;
  return embedder;
};

beforeAll(async () => {
  embedder = await loadTransformersEmbedder({
    model: MODELS['glove-sif-384-q8']!,
    modelsDir: FIXTURE_MODELS,
  });
});
afterAll(async () => {
  await embedder.dispose();
});

function setup() {
  const dir = tempDir();
  const s = testStore(dir.path, 'p1');
  const store = createJsVectorStore(s.db, 384);
  const add = (type: string, title: string, body: string) =>
    createRecord(s.deps, { type, title, body, source: 'cli', confidence: 'explicit' }).id;
  return { dir, s, store, add };
}

describe('semantic consolidation (glove fixture, JS store)', () => {
  it('rrf fuses ranks with k = 60', () => {
    const f = rrfFuse([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    expect(f.get('b')).toBeCloseTo(1 / 62 + 1 / 61, 10);
    expect(f.get('a')).toBeCloseTo(1 / 61, 10);
    expect(f.get('c')).toBeCloseTo(1 / 62, 10);
  });

  it('backfill embeds pending records in batches with one model load; an interrupted run resumes', async () => {
    const { dir, s, store, add } = setup();
    try {
      for (let i = 0; i < 30; i++)
        add('discovery', `Finding number ${i}`, `The cache layer returned stale entry ${i}.`);
      loads = 0;
      let batches = 0;
      const first = await backfillEmbeddings({
        db: s.db,
        store,
        loadEmbedder: load,
        namespaces: ['p1', '_global'],
        batchSize: 8,
        checkpoint: () => ++batches === 2, // killed after the second committed batch
      });
      expect(first.stopped).toBe('interrupted');
      expect(first.embedded).toBe(16);
      expect(countPending(s.db, ['p1'])).toBe(14);
      expect(store.count()).toBe(16);
      const second = await backfillEmbeddings({
        db: s.db,
        store,
        loadEmbedder: load,
        namespaces: ['p1', '_global'],
      });
      expect(second.embedded).toBe(14);
      expect(second.pending).toBe(0);
      expect(store.count()).toBe(30);
      expect(loads).toBe(2);
      // nothing pending: the model is not loaded at all
      const third = await backfillEmbeddings({ db: s.db, store, loadEmbedder: load, namespaces: ['p1'] });
      expect(third.model_loaded).toBe(false);
      expect(loads).toBe(2);
    } finally {
      s.db.close();
      dir.cleanup();
    }
  });

  it('finds near-duplicates by cosine within a type, merges on confirmation, dismissal sticks', async () => {
    const { dir, s, store, add } = setup();
    try {
      const a = add(
        'decision',
        'Store records in SQLite',
        'We keep all records in one SQLite database file with WAL mode.',
      );
      const b = add(
        'decision',
        'Records live in a SQLite database',
        'All records are kept in a single SQLite database file in WAL mode.',
      );
      const c = add(
        'convention',
        'Records in SQLite',
        'We keep all records in one SQLite database file with WAL mode.',
      );
      const d = add(
        'decision',
        'Deploy on Fridays is forbidden',
        'No production deployments happen on a Friday afternoon.',
      );
      await backfillEmbeddings({ db: s.db, store, loadEmbedder: load, namespaces: ['p1', '_global'] });
      const out = scanVectorDuplicates({
        db: s.db,
        store,
        projectId: 'p1',
        namespaces: ['p1', '_global'],
        nowIso: s.clock().toISOString(),
        elapsed: () => 0,
        budgetMs: 10_000,
      });
      expect(out.outcome).toBe('done');
      const pairs = s.db
        .prepare("SELECT record_a, record_b, similarity FROM merge_candidates WHERE status = 'open'")
        .all() as {
        record_a: string;
        record_b: string;
        similarity: number;
      }[];
      expect(pairs.map((p) => [p.record_a, p.record_b])).toEqual([[a, b]]);
      expect(pairs[0]!.similarity).toBeGreaterThan(0.92);
      // c (another type) and d (another subject) are not candidates
      expect(JSON.stringify(pairs)).not.toContain(c);
      expect(JSON.stringify(pairs)).not.toContain(d);

      expect(() => mergePair({ ...s.deps }, a, c)).toThrow(/same type/);
      const m = mergePair({ ...s.deps }, b, a);
      expect(m).toEqual({ keeper: a, superseded: b });
      const rb = s.db.prepare('SELECT superseded_by FROM records WHERE id = ?').get(b) as {
        superseded_by: string;
      };
      expect(rb.superseded_by).toBe(a);
      expect(
        (s.db.prepare('SELECT status FROM merge_candidates WHERE record_a = ?').get(a) as { status: string })
          .status,
      ).toBe('merged');

      const e = add(
        'decision',
        'No Friday deploys',
        'Production deployments never happen on a Friday afternoon.',
      );
      dismissPair({ ...s.deps }, e, d);
      await backfillEmbeddings({ db: s.db, store, loadEmbedder: load, namespaces: ['p1', '_global'] });
      const summary = consolidate({
        db: s.db,
        clock: s.clock,
        newId: s.deps.newId,
        project: { id: 'p1', name: 'p1', root: dir.path },
        digestsDir: dir.path,
        vectors: store,
      });
      expect(summary.finished).toBe(true);
      // the dismissal is stored apart from the derived list, and the scan never proposes the pair
      expect(s.db.prepare('SELECT id_a, id_b FROM merge_dismissals').all()).toEqual([{ id_a: d, id_b: e }]);
      expect(
        s.db
          .prepare(
            "SELECT COUNT(*) AS n FROM merge_candidates WHERE record_a = ? AND record_b = ? AND status = 'open'",
          )
          .get(d, e),
      ).toEqual({ n: 0 });
      expect(listMergeCandidates(s.db, ['p1', '_global'], 100).some((c) => c.record_b === e)).toBe(false);
    } finally {
      s.db.close();
      dir.cleanup();
    }
  });

  it('hybrid search finds a paraphrase the keyword engine misses, and keeps keyword hits', async () => {
    const { dir, s, store, add } = setup();
    try {
      const db = add('decision', 'Persistence', 'Everything is kept in an SQLite file.');
      const paraphrase = add(
        'discovery',
        'Season result',
        'The soccer team was beaten in the final match of the season.',
      );
      add('convention', 'Tabs', 'Indent with tabs.');
      await backfillEmbeddings({ db: s.db, store, loadEmbedder: load, namespaces: ['p1', '_global'] });
      const query = 'which football game did the club lose';
      // plain RRF that admits vector-only hits (the default re-ranks keyword candidates only)
      const saved = { ...HYBRID_TUNING };
      Object.assign(HYBRID_TUNING, { candidatesOnly: false, vectorWeight: 1, keywordDepth: 50 });
      onTestFinished(() => {
        Object.assign(HYBRID_TUNING, saved);
      });
      const q = await embedder.embedQuery(query);
      const out = hybridSearch(s.db, { projectId: 'p1', query, now: s.clock(), limit: 3 }, q, store);
      expect(out.hybrid).toBe(true);
      // keyword-only cannot see it: no query word occurs in the record
      expect(
        search(s.db, { projectId: 'p1', query, now: s.clock() }).hits.map((h) => h.record.id),
      ).not.toContain(paraphrase);
      expect(out.hits[0]!.record.id).toBe(paraphrase);
      const kw = hybridSearch(
        s.db,
        { projectId: 'p1', query: 'sqlite', now: s.clock(), limit: 3 },
        await embedder.embedQuery('sqlite'),
        store,
      );
      expect(kw.hits[0]!.record.id).toBe(db);
    } finally {
      s.db.close();
      dir.cleanup();
    }
  });
});
