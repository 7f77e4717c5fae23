import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { search } from '../core/retrieval/search.js';
import { type Db, openDb } from '../database/open.js';
import { insertRecord } from '../database/records-repo.js';

/** A deterministic PRNG so every run builds the same synthetic store. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const COMMON = `the a to of and in we use for is on with that this it be as by not when from should
  build test cache config error fix api server client request response database query index file module
  function type handler route token session user auth login deploy release branch commit merge lint
  format schema migration table column record search retry timeout log metric worker queue job`.split(/\s+/);

/** A lexicon of common words plus invented rare ones, drawn with a Zipf-like skew. */
function makeWords(rand: () => number): () => string {
  const rare: string[] = [];
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  for (let i = 0; i < 20000; i++) {
    let w = '';
    const n = 4 + Math.floor(rand() * 7);
    for (let j = 0; j < n; j++) w += letters[Math.floor(rand() * 26)];
    rare.push(w);
  }
  const lexicon = [...COMMON, ...rare];
  return () => lexicon[Math.floor(lexicon.length * rand() ** 3)] ?? 'x';
}

function fill(db: Db, n: number, word: () => string, rand: () => number): void {
  const types = ['decision', 'convention', 'bugfix', 'discovery', 'preference', 'handover'] as const;
  const tx = db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const title = Array.from({ length: 8 }, word).join(' ');
      const body = Array.from({ length: 40 + Math.floor(rand() * 80) }, word).join(' ');
      const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 300) * 86400000).toISOString();
      insertRecord(db, {
        id: `r${i}`,
        project_id: i % 10 === 0 ? 'other' : 'p',
        type: types[i % types.length]!,
        title,
        body,
        scope: 'project',
        pinned: 0,
        confidence: 'explicit',
        reinforce_count: 0,
        valid_from: at,
        recorded_at: at,
        source: 'import',
        session_id: null,
      });
    }
  });
  tx();
}

interface LatencyReport {
  records: number;
  promptWords: number;
  medianMs: number;
  p95Ms: number;
  shortMedianMs: number;
}

/** Time `search` for a 55-word prompt (and a 5-word one) over `n` synthetic records. */
export function measureLatency(n: number, runs = 50): LatencyReport {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-latency-'));
  const db = openDb(join(dir, 'agentctx.db'));
  try {
    const rand = prng(42);
    const word = makeWords(rand);
    fill(db, n, word, rand);
    const now = new Date('2026-12-01T00:00:00Z');
    const time = (query: string) => {
      const t: number[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        search(db, { projectId: 'p', query, limit: 3, now });
        t.push(performance.now() - t0);
      }
      t.sort((a, b) => a - b);
      return t;
    };
    const long = Array.from({ length: 55 }, word).join(' ');
    const short = 'why does the cache config timeout';
    time(long); // warm the page cache and statement cache
    const tl = time(long);
    const ts = time(short);
    const r = (v: number | undefined) => Math.round((v ?? 0) * 100) / 100;
    return {
      records: n,
      promptWords: 55,
      medianMs: r(tl[Math.floor(tl.length / 2)]),
      p95Ms: r(tl[Math.floor(tl.length * 0.95)]),
      shortMedianMs: r(ts[Math.floor(ts.length / 2)]),
    };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
