import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normalizeText, planExactMerges } from '../../../../src/core/consolidation/duplicates.js';
import { type ConsolidateDeps, consolidate } from '../../../../src/core/consolidation/run.js';
import { computeScore, planScores } from '../../../../src/core/consolidation/scores.js';
import { readDigest } from '../../../../src/core/digest/digest-file.js';
import { createRecord, type RecordsDeps } from '../../../../src/core/records/records.js';
import { listMergeCandidates } from '../../../../src/database/consolidation-repo.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import type { ContextRecord } from '../../../../src/shared/types.js';
import { tempDir } from '../../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

const NOW = new Date('2026-11-30T12:00:00Z');
const PROJECT = 'proj-c';

/** A store with deterministic ids and a settable clock. */
function store(name: string) {
  const db = openDb(join(t.path, name, 'agentctx.db'));
  let n = 0;
  let now = NOW;
  const newId = () => `01JX${String(++n).padStart(22, '0')}`;
  const deps: RecordsDeps = { db, clock: () => now, newId, projectId: PROJECT, reinforceThreshold: 3 };
  const global: RecordsDeps = { ...deps, projectId: '_global' };
  return {
    db,
    deps,
    global,
    setNow: (iso: string) => {
      now = new Date(iso);
    },
    consolidateDeps: (extra: Partial<ConsolidateDeps> = {}): ConsolidateDeps => ({
      db,
      clock: () => NOW,
      newId,
      project: { id: PROJECT, name: 'billing', root: join(t.path, 'no-repo') },
      digestsDir: join(t.path, name, 'digests'),
      reinforceThreshold: 3,
      ...extra,
    }),
  };
}

type Store = ReturnType<typeof store>;

const TOPICS = [
  'invoice',
  'ledger',
  'webhook',
  'tax',
  'refund',
  'currency',
  'audit',
  'report',
  'export',
  'cache',
];
const SYL = [
  'ka',
  'lo',
  'mi',
  'ren',
  'tus',
  'vo',
  'zel',
  'pra',
  'dun',
  'fi',
  'gor',
  'hem',
  'jax',
  'qui',
  'sab',
  'wen',
  'yor',
  'bic',
];
/** A distinct made-up word per n, so unrelated records share few terms (as real facts do). */
const w = (n: number) => `${SYL[n % 18]}${SYL[Math.floor(n / 18) % 18]}${SYL[Math.floor(n / 324) % 18]}x`;
const words = (i: number, k: number, from: number) =>
  Array.from({ length: k }, (_, j) => w(i * 31 + from + j * 3 + 7)).join(' ');

/** ~560 records: distinct facts, exact copies, paraphrases, old and new. */
function populate(s: Store): void {
  for (let i = 0; i < 120; i++) {
    s.setNow(new Date(NOW.getTime() - (400 - i) * 86_400_000).toISOString());
    const topic = TOPICS[i % TOPICS.length]!;
    const disc = {
      title: `The ${topic} ${words(i, 3, 0)} flushes on shutdown`,
      body: `It drains ${words(i, 5, 1)} before exiting.`,
    };
    createRecord(s.deps, {
      type: 'discovery',
      ...disc,
      source: 'llm_extraction',
      confidence: i % 2 ? 'explicit' : 'inferred',
    });
    createRecord(s.deps, {
      type: 'bugfix',
      title: `Fix ${topic} crash in ${words(i, 2, 2)}`,
      body: `Null check in ${words(i, 4, 40)}; root cause was a missing guard.`,
      source: 'cli',
      confidence: 'explicit',
    });
    createRecord(s.deps, {
      type: 'decision',
      title: `Use ${words(i, 2, 80)} for ${topic}`,
      body: `Chosen over ${words(i, 3, 90)}.`,
      source: 'cli',
      confidence: 'explicit',
    });
    if (i % 4 === 0) {
      // an exact copy with different case and punctuation, later
      createRecord(s.deps, {
        type: 'discovery',
        title: `${disc.title.toUpperCase()}!`,
        body: `${disc.body.replace(/ /g, '  ').replace('.', '')}`,
        source: 'llm_extraction',
        confidence: 'inferred',
      });
    }
    if (i % 5 === 0) {
      // a paraphrase: near duplicate
      createRecord(s.deps, {
        type: 'bugfix',
        title: `Fixed the ${topic} crash in ${words(i, 2, 2)}`,
        body: `Added a null check in ${words(i, 4, 40)}; the root cause was a missing guard there.`,
        source: 'cli',
        confidence: 'explicit',
      });
    }
  }
  for (let k = 0; k < 3; k++) {
    createRecord(s.global, {
      type: 'preference',
      title: 'Prefers small commits',
      body: k === 1 ? 'One logical change per commit!' : 'One logical change per commit.',
      scope: 'global',
      source: 'llm_extraction',
      confidence: 'inferred',
    });
  }
  s.setNow(NOW.toISOString());
}

function dump(db: Db) {
  return {
    records: db.prepare('SELECT * FROM records ORDER BY id').all(),
    candidates: db
      .prepare(
        'SELECT project_id, type, record_a, record_b, similarity, detected_at, status FROM merge_candidates ORDER BY record_a, record_b',
      )
      .all(),
    edges: db.prepare('SELECT from_id, to_id, rel_type FROM edges ORDER BY from_id, to_id').all(),
  };
}

describe('scores', () => {
  const base = { id: 'x', pinned: 0, access_count: 0, last_accessed: null, score: 1 };
  it('follows the documented formula and never decays decisions, conventions or profile facts', () => {
    const days = (d: number) => new Date(NOW.getTime() - d * 86_400_000).toISOString();
    const r = (o: Partial<ContextRecord>) =>
      computeScore(
        { ...base, type: 'discovery', confidence: 'explicit', valid_from: days(0), ...o } as ContextRecord,
        NOW,
      );
    expect(r({})).toBe(0.9);
    expect(r({ valid_from: days(120) })).toBe(0.45);
    expect(r({ valid_from: days(120), confidence: 'inferred' })).toBe(0.27);
    expect(r({ valid_from: days(120), pinned: 1 })).toBe(1.125);
    expect(r({ type: 'handover', valid_from: days(30) })).toBe(0.5);
    expect(r({ type: 'preference', valid_from: days(365), confidence: 'reinforced' })).toBe(0.45);
    expect(r({ valid_from: days(5000) })).toBe(0.045);
    // reads lift a record; the lift fades a month after the last read
    expect(r({ access_count: 10, last_accessed: days(0) })).toBe(
      Math.round(0.9 * (1 + 0.1 * Math.log(11)) * 1e4) / 1e4,
    );
    expect(r({ access_count: 10, last_accessed: days(30) })).toBe(
      Math.round(0.9 * (1 + 0.05 * Math.log(11)) * 1e4) / 1e4,
    );
    for (const type of ['decision', 'convention', 'profile'] as const)
      expect(r({ type, valid_from: days(900) })).toBeNull();
    const plan = planScores(
      [
        { ...base, id: 'a', type: 'decision', confidence: 'inferred', valid_from: days(900), score: 0.7 },
        { ...base, id: 'b', type: 'bugfix', confidence: 'explicit', valid_from: days(0), score: 0.95 },
        { ...base, id: 'c', type: 'bugfix', confidence: 'explicit', valid_from: days(240), score: 0.95 },
      ],
      NOW,
    );
    expect(plan).toEqual([{ id: 'c', score: 0.2375 }]);
  });
});

describe('duplicates', () => {
  it('normalises case, punctuation and whitespace', () => {
    expect(normalizeText('  Use  PNPM, not npm!\n')).toBe('use pnpm not npm');
  });

  it('plans merges into the oldest copy, reinforcing an inferred keeper', () => {
    const mk = (id: string, at: string, confidence: ContextRecord['confidence'], body = 'Same body.') => ({
      id,
      project_id: 'p',
      type: 'preference' as const,
      title: 'T',
      body,
      pinned: 0,
      confidence,
      reinforce_count: 0,
      access_count: 1,
      last_accessed: at,
      recorded_at: at,
    });
    const plans = planExactMerges(
      [
        mk('b', '2026-02-01', 'inferred'),
        mk('a', '2026-01-01', 'inferred'),
        mk('c', '2026-03-01', 'explicit', 'same BODY'),
      ],
      3,
    );
    expect(plans).toEqual([
      {
        keeper: 'a',
        copies: ['b', 'c'],
        pinned: 0,
        confidence: 'reinforced',
        reinforce_count: 2,
        access_count: 3,
        last_accessed: '2026-03-01',
      },
    ]);
    expect(planExactMerges([mk('a', '1', 'inferred'), mk('b', '2', 'inferred', 'Other body')], 3)).toEqual(
      [],
    );
  });
});

describe('consolidate', () => {
  it('updates scores, merges exact copies into the older record, records near duplicates without merging, writes the digest', () => {
    const s = store('one');
    populate(s);
    const res = consolidate(s.consolidateDeps());
    expect(res.finished).toBe(true);
    expect(res.merged).toBe(30 + 2);
    // every exact copy is superseded by its older original, which stays current
    const copies = s.db
      .prepare("SELECT * FROM records WHERE superseded_at IS NOT NULL AND type = 'discovery'")
      .all() as ContextRecord[];
    expect(copies).toHaveLength(30);
    for (const c of copies) {
      const keeper = s.db.prepare('SELECT * FROM records WHERE id = ?').get(c.superseded_by) as ContextRecord;
      expect(keeper.superseded_at).toBeNull();
      expect(keeper.id < c.id).toBe(true);
      expect(keeper.reinforce_count).toBe(1);
    }
    const pref = s.db
      .prepare("SELECT * FROM records WHERE project_id = '_global' AND superseded_at IS NULL")
      .all() as ContextRecord[];
    expect(pref).toHaveLength(1);
    expect(pref[0]!.reinforce_count).toBe(2);
    // near duplicates: the paraphrased bug fixes are candidates, both still current
    const cands = listMergeCandidates(s.db, [PROJECT, '_global'], 100);
    expect(cands.length).toBeGreaterThanOrEqual(20);
    expect(res.merge_candidates).toBe(cands.length);
    expect(cands).toHaveLength(24);
    for (const c of cands) {
      expect(c.type).toBe('bugfix');
      expect(c.title_b).toMatch(/^Fixed the /);
      expect(c.title_a).toBe(c.title_b.replace('Fixed the', 'Fix'));
      expect(c.similarity).toBeGreaterThanOrEqual(0.6);
    }
    expect(
      s.db
        .prepare("SELECT COUNT(*) AS n FROM records WHERE type = 'bugfix' AND superseded_at IS NOT NULL")
        .get(),
    ).toEqual({ n: 0 });
    // scores: a 400-day-old inferred discovery decayed, decisions untouched
    const oldest = s.db
      .prepare("SELECT score FROM records WHERE type = 'discovery' ORDER BY id LIMIT 1")
      .get() as { score: number };
    expect(oldest.score).toBe(
      computeScore(
        s.db
          .prepare("SELECT * FROM records WHERE type = 'discovery' ORDER BY id LIMIT 1")
          .get() as ContextRecord,
        NOW,
      ),
    );
    expect(oldest.score).toBeLessThan(0.1);
    expect(s.db.prepare("SELECT DISTINCT score FROM records WHERE type = 'decision'").all()).toEqual([
      { score: 1 },
    ]);
    // the digest file exists, within budget, with its ids
    const d = readDigest(join(t.path, 'one', 'digests'), PROJECT)!;
    expect(d.text).toContain('## Decisions and conventions');
    expect(d.tokens).toBeLessThanOrEqual(1500);
    expect(d.ids.length).toBeGreaterThan(5);
    expect(s.db.pragma('integrity_check', { simple: true })).toBe('ok');
    // the word counts searches read instead of walking posting lists: a copy of fts5vocab
    expect(res.term_df).toBe(true);
    expect(res.steps.map((x) => x.name)).toContain('term frequencies');
    const diff = s.db
      .prepare(
        `SELECT COUNT(*) AS n FROM records_fts_vocab v LEFT JOIN term_df d ON d.term = v.term
         WHERE d.doc IS NOT v.doc`,
      )
      .get() as { n: number };
    expect(diff.n).toBe(0);
    expect(consolidate(s.consolidateDeps()).term_df).toBe(false); // nothing changed since
  });

  it('is idempotent: a rerun changes nothing', () => {
    const s = store('two');
    populate(s);
    consolidate(s.consolidateDeps());
    const before = dump(s.db);
    const again = consolidate(s.consolidateDeps());
    expect(again.scores_updated).toBe(0);
    expect(again.merged).toBe(0);
    expect(dump(s.db)).toEqual(before);
  });

  it('commits new scores in short slices: no write transaction holds more than the cap', () => {
    const s = store('slices');
    populate(s);
    const seen: Record<string, number> = {};
    const run = consolidate(
      s.consolidateDeps({
        slice: { maxMs: Number.POSITIVE_INFINITY, cap: 5, pauseMs: 0 },
        checkpoint: (step) => {
          seen[step] = (seen[step] ?? 0) + 1;
          return false;
        },
      }),
    );
    expect(run.scores_updated).toBeGreaterThan(10);
    expect(seen.scores).toBe(Math.ceil(run.scores_updated / 5));
    s.db.close();
  });

  it('killed after any committed step, a rerun reaches the same final state as an uninterrupted run', () => {
    const ref = store('ref');
    populate(ref);
    consolidate(ref.consolidateDeps());
    const want = dump(ref.db);
    const wantDigest = readDigest(join(t.path, 'ref', 'digests'), PROJECT)!.text;
    // count the commit points of a full run (slices bounded by count only, and small, so every
    // run has the same commit points and the scores, drift scores and term counts take several)
    const slice = { maxMs: Number.POSITIVE_INFINITY, cap: 7, pauseMs: 0 };
    const probe = store('probe');
    populate(probe);
    let points = 0;
    consolidate(probe.consolidateDeps({ slice, checkpoint: () => (points++, false) }));
    expect(points).toBeGreaterThan(8);
    for (const k of [0, 1, 3, Math.floor(points / 2), points - 3, points - 1]) {
      const s = store(`k${k}`);
      populate(s);
      let seen = 0;
      const cut = consolidate(s.consolidateDeps({ slice, checkpoint: () => seen++ === k }));
      expect(cut.stopped).toBe('interrupted');
      expect(s.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const done = consolidate(s.consolidateDeps());
      expect(done.finished).toBe(true);
      expect(dump(s.db)).toEqual(want);
      expect(readDigest(join(t.path, `k${k}`, 'digests'), PROJECT)!.text).toBe(wantDigest);
      s.db.close();
    }
  });

  it('proposes a near copy written after an earlier run (term counts kept in step by each run)', () => {
    const s = store('later-copy');
    populate(s);
    const fact = {
      title: 'Keep the kestrelwing ledger export behind the quillfeather flag',
      body: 'The kestrelwing export writes quillfeather rows; leave it off until the audit passes.',
    };
    const first = createRecord(s.deps, { type: 'decision', ...fact, source: 'cli', confidence: 'explicit' });
    consolidate(s.consolidateDeps()); // counts its rare words once each
    // a near copy (one word differs), written after the run that counted the first one's words
    const copy = createRecord(s.deps, {
      type: 'decision',
      title: fact.title,
      body: fact.body.replace('passes', 'finishes'),
      source: 'cli',
      confidence: 'explicit',
    });
    consolidate(s.consolidateDeps());
    const pairs = listMergeCandidates(s.db, [PROJECT, '_global'], 500).map((c) => [c.record_a, c.record_b]);
    expect(pairs).toContainEqual([first.id, copy.id]);
  });

  it('stops the near-duplicate scan at its time box and resumes it on the next run', () => {
    const ref = store('ref2');
    populate(ref);
    consolidate(ref.consolidateDeps());
    const s = store('boxed');
    populate(s);
    let calls = 0;
    const first = consolidate(s.consolidateDeps({ budgetMs: 1, elapsed: () => (++calls > 1 ? 10 : 0) }));
    expect(first.stopped).toBe('time');
    expect(first.finished).toBe(false);
    expect(first.digest.path_written).toBe(true);
    const second = consolidate(s.consolidateDeps());
    expect(second.finished).toBe(true);
    expect(dump(s.db)).toEqual(dump(ref.db));
  });
});
