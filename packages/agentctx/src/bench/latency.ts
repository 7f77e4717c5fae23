import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { search } from '../core/retrieval/search.js';
import { openDb } from '../database/open.js';
import { mulberry32, type Rand } from './prng.js';
import { type SeedRecord, seedRecords } from './seed.js';

const COMMON = `the a to of and in we use for is on with that this it be as by not when from should
  build test cache config error fix api server client request response database query index file module
  function type handler route token session user auth login deploy release branch commit merge lint
  format schema migration table column record search retry timeout log metric worker queue job`.split(/\s+/);

/** A lexicon of common words plus invented rare ones, drawn with a Zipf-like skew. */
function makeWords(rand: Rand): () => string {
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

/** `n` records, 10% of another project; a project keeps one current handover, the latest. */
function* records(n: number, word: () => string, rand: Rand): Generator<SeedRecord> {
  const types = ['decision', 'convention', 'bugfix', 'discovery', 'preference', 'handover'] as const;
  const handover = new Set<string>();
  for (let i = 0; i < n; i++) {
    const title = Array.from({ length: 8 }, word).join(' ');
    const body = Array.from({ length: 40 + Math.floor(rand() * 80) }, word).join(' ');
    const at = new Date(Date.UTC(2026, 0, 1) + Math.floor(rand() * 300) * 86400000).toISOString();
    const project = i % 10 === 0 ? 'other' : 'p';
    const type = types[i % types.length] as (typeof types)[number];
    const retired = type === 'handover' && handover.has(project);
    if (type === 'handover') handover.add(project);
    yield {
      id: `r${i}`,
      project_id: project,
      type,
      title,
      body,
      valid_from: at,
      superseded_at: retired ? at : null,
    };
  }
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
    const rand = mulberry32(42);
    const word = makeWords(rand);
    seedRecords(db, records(n, word, rand));
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
