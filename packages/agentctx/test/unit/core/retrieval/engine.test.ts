import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRecord, supersedeRecord } from '../../../../src/core/records/records.js';
import { MAX_QUERY_TERMS } from '../../../../src/core/retrieval/query.js';
import { baselineSearch, search } from '../../../../src/core/retrieval/search.js';
import { openWith } from '../../../../src/database/connection.js';
import type { Db } from '../../../../src/database/open.js';
import { withoutFts5 } from '../../../support/no-fts5.js';
import { testStore } from '../../../support/store.js';
import { tempDir } from '../../../support/tmp.js';
import { hostileQueries } from './hostile-queries.js';

let dir: ReturnType<typeof tempDir>;
let s: ReturnType<typeof testStore>;

function add(
  title: string,
  body: string,
  extra: { type?: string; validFrom?: string; pinned?: boolean; project?: string } = {},
) {
  const deps = extra.project ? { ...s.deps, projectId: extra.project } : s.deps;
  return createRecord(deps, {
    type: extra.type ?? 'decision',
    title,
    body,
    source: 'cli',
    confidence: 'explicit',
    validFrom: extra.validFrom,
    pinned: extra.pinned,
  });
}

const q = (query: string, more: Partial<Parameters<typeof search>[1]> = {}) =>
  search(s.db, { projectId: 'p-test', query, now: s.clock(), ...more });

beforeEach(() => {
  dir = tempDir();
  s = testStore(dir.path);
  add('Sessions in Redis', 'Customer sessions live in Redis with a sliding TTL of 14 days.');
  add('Postgres is the primary database', 'Orders and catalog data are stored in Postgres 16.');
  add('Retry webhooks idempotently', 'Stripe webhooks are deduplicated by event id.', { type: 'bugfix' });
  add('Pinned: never force-push main', 'Protected branch; open a pull request.', {
    type: 'convention',
    pinned: true,
  });
  for (let i = 0; i < 30; i++)
    add(`Filler note ${i}`, `Unrelated text about widgets number ${i} and gadgets.`);
});
afterEach(() => {
  s.db.close();
  dir.cleanup();
});

describe('search ranking and weak-match fields', () => {
  it('ranks the record that covers the query first with coverage 1', () => {
    const res = q('where are customer sessions stored? redis?');
    expect(res.hits[0]?.record.title).toBe('Sessions in Redis');
    expect(res.hits[0]?.score).toBe(1);
    expect(res.hits[0]?.matched).toBe(res.terms.length - 1); // "stored" is not in it
    expect(res.hits[0]?.coverage).toBeGreaterThan(0.6);
    expect(res.hits[0]?.relevance).toBeGreaterThan(0);
  });

  it('reports low coverage when only a common or minor word matches', () => {
    const strong = q('postgres database orders').hits[0]!;
    const weak = q('widgets kubernetes helm chart').hits[0]!;
    expect(strong.coverage).toBe(1);
    expect(weak.matched).toBe(1);
    expect(weak.coverage).toBeLessThan(0.4);
  });

  it('counts query words the store has never seen against coverage', () => {
    const res = q('redis zyxwvut');
    expect(res.terms.map((t) => t.word)).toEqual(['redis', 'zyxwvut']);
    expect(res.hits[0]?.matched).toBe(1);
    expect(res.hits[0]?.coverage).toBeLessThan(0.6);
  });

  it('returns nothing for a prompt of stop-words only', () => {
    const res = q('what do you think about it, please?');
    expect(res.terms).toEqual([]);
    expect(res.hits).toEqual([]);
  });

  it('keeps at most MAX_QUERY_TERMS terms for a long paste and still finds the rare word', () => {
    const paste = `${Array.from({ length: 200 }, (_, i) => `word${i}`).join(' ')} gadgets stripe webhooks`;
    const res = q(paste);
    expect(res.terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
    expect(res.hits[0]?.record.title).toBe('Retry webhooks idempotently');
  });

  it('prefers a record from the month the query names', () => {
    add('Cache warmup job', 'The cache warmup job runs nightly.', { validFrom: '2026-03-10T00:00:00Z' });
    add('Cache warmup job', 'The cache warmup job runs hourly.', { validFrom: '2026-06-10T00:00:00Z' });
    const hits = q('what did we set up for cache warmup in March').hits;
    expect(hits[0]?.record.body).toContain('nightly');
    expect(q('cache warmup job').hits[0]?.record.body).toContain('hourly'); // no hint: newer wins
  });

  it('beats nothing it should not: the baseline sees the same records', () => {
    expect(baselineSearch(s.db, 'p-test', 'redis sessions', 5)).toHaveLength(1);
  });
});

describe('search filters', () => {
  it('never returns superseded records unless history is asked, nor another project', () => {
    const old = add('Queue is RabbitMQ', 'Events go to RabbitMQ.');
    supersedeRecord(s.deps, old.id, {
      body: 'Events go to SQS FIFO queues.',
      rationale: 'managed',
      source: 'cli',
    });
    add('Queue in other project', 'Events go to RabbitMQ there.', { project: 'p-other' });
    const ids = q('rabbitmq events queue').hits.map((h) => h.record);
    expect(ids.every((r) => r.superseded_at === null && r.project_id !== 'p-other')).toBe(true);
    expect(ids.some((r) => r.body.includes('SQS'))).toBe(true);
    expect(ids.some((r) => r.id === old.id)).toBe(false);
    const hist = q('rabbitmq events queue', { history: true }).hits.map((h) => h.record.id);
    expect(hist).toContain(old.id);
  });

  it('honours excludeIds, onlyIds, types and limit', () => {
    const first = q('redis sessions').hits[0]!.record.id;
    expect(q('redis sessions', { excludeIds: [first] }).hits.map((h) => h.record.id)).not.toContain(first);
    expect(q('widgets', { onlyIds: [first] }).hits).toEqual([]);
    expect(q('widgets gadgets', { types: ['bugfix'] }).hits).toEqual([]);
    expect(q('widgets gadgets', { limit: 3 }).hits).toHaveLength(3);
  });
});

describe('degradation ladder (CONTRACTS.md §ladder)', () => {
  /** The store opened by a SQLite that has no FTS5 (test/support/no-fts5.ts). */
  function brokenCopy(): Db {
    s.db.pragma('wal_checkpoint(TRUNCATE)');
    const copy = join(dir.path, 'copy.db');
    copyFileSync(join(dir.path, 'agentctx.db'), copy);
    return openWith(withoutFts5(), copy);
  }

  it('finds y→i spellings ("retries" -> "retried") on the FTS5 rung and the LIKE rung', () => {
    add('Webhook deliveries retried', 'The queue worker retried each failed delivery with backoff.');
    const fts = q('webhook retries');
    expect(fts.hits[0]?.record.title).toBe('Webhook deliveries retried');
    expect(fts.hits[0]?.coverage).toBe(1);
    const db = brokenCopy();
    const like = search(db, { projectId: 'p-test', query: 'retries', now: s.clock() });
    expect(like.degraded).toBe('like-search');
    expect(like.hits.map((h) => h.record.title)).toContain('Webhook deliveries retried');
    db.close();
  });

  it('falls back to LIKE search, marked like-search, when SQLite has no FTS5', () => {
    const db = brokenCopy();
    const res = search(db, { projectId: 'p-test', query: 'customer sessions', now: s.clock() });
    expect(res.degraded).toBe('like-search');
    expect(res.hits[0]?.record.title).toBe('Sessions in Redis');
    expect(res.hits[0]?.coverage).toBe(1);
    db.close();
  });

  it('returns pinned records only, marked pinned-only, when LIKE fails too', () => {
    const db = brokenCopy();
    db.function('like', { varargs: true }, () => {
      throw new Error('LIKE unavailable');
    });
    const res = search(db, { projectId: 'p-test', query: 'customer sessions', now: s.clock() });
    expect(res.degraded).toBe('pinned-only');
    expect(res.hits.map((h) => h.record.title)).toEqual(['Pinned: never force-push main']);
    db.close();
  });

  it('returns an empty pinned-only result on a closed database instead of throwing', () => {
    const db = brokenCopy();
    db.close();
    expect(search(db, { projectId: 'p-test', query: 'redis', now: s.clock() })).toEqual({
      hits: [],
      terms: expect.any(Array),
      degraded: 'pinned-only',
    });
  });
});

describe('1,000 random and hostile queries', () => {
  it('never throw and always return well-formed hits', () => {
    let withHits = 0;
    for (const query of hostileQueries(1000)) {
      const res = q(query, { limit: 15 });
      expect(res.degraded, JSON.stringify(query).slice(0, 120)).toBeUndefined();
      expect(res.terms.length).toBeLessThanOrEqual(MAX_QUERY_TERMS);
      for (const h of res.hits) {
        expect(h.score).toBeGreaterThanOrEqual(0);
        expect(h.score).toBeLessThanOrEqual(1);
        expect(h.coverage).toBeGreaterThanOrEqual(0);
        expect(h.coverage).toBeLessThanOrEqual(1);
        expect(h.matched).toBeLessThanOrEqual(res.terms.length);
      }
      if (res.hits.length > 0) withHits++;
    }
    expect(withHits).toBeGreaterThan(100);
  });

  it('tolerates non-string query values from untyped callers', () => {
    for (const bad of [undefined, null, 42, {}, ['redis']] as unknown[]) {
      expect(() => q(bad as string)).not.toThrow();
    }
  });
});
