import { expect } from 'vitest';
import type { ContextRecord } from '../../src/shared/types.js';
import { rowsOf } from './store-check.js';

/**
 * What "a rerun ends identical to an uninterrupted run" means, for the kill tests.
 *
 * Content is compared exactly: every column of every record, the supersession chains, edges,
 * merge candidates, word frequencies, vectors, the extraction offsets. Three things cannot be
 * equal between two runs made at different moments, and are compared by what they say rather
 * than by their value:
 * - timestamps a run takes from its own clock (superseded_at of a merge, a candidate's
 *   detected_at, a new record's valid_from / recorded_at, the run's own start and end) are
 *   compared as present or absent;
 * - ids a run mints (ULIDs of records or edges it creates) are replaced by the content they
 *   name (a record's type, title and body; an edge's ends and kind);
 * - a decaying score is computed from the clock and rounded to 4 decimals: it may differ by
 *   one rounding step (0.0001) between runs a few seconds apart;
 * - a record the run creates itself (profile facts, from the project's files) after the
 *   embedding backfill is embedded by the next run: its pending flag and vector depend on
 *   whether a kill made a second run happen (the callers compare seeded records' vectors).
 */

/** A records row as stored: the project's own record type. */
export type RecordRow = ContextRecord;

export interface Comparable {
  records: Record<string, unknown>[];
  scores: Map<string, number>;
  edges: string[];
  extra: Record<string, unknown[]>;
}

/**
 * The records and edges of the store at `path`, ready to compare. `known` ids (seeded by the
 * test) stay as they are; any other id becomes the content of its record.
 */
export function comparable(
  path: string,
  known: ReadonlySet<string>,
  extra: Record<string, string> = {},
): Comparable {
  const rows = rowsOf<RecordRow>(path, 'SELECT * FROM records');
  const keyOf = new Map<string, string>();
  for (const r of rows) keyOf.set(r.id, known.has(r.id) ? r.id : `new:${r.type}:${r.title}:${r.body}`);
  for (const n of rowsOf<{ id: string; name: string }>(path, 'SELECT id, name FROM nodes'))
    keyOf.set(n.id, `node:${n.name}`);
  const key = (id: string | null) => (id === null ? null : (keyOf.get(id) ?? `unknown:${id}`));
  const fresh = (r: RecordRow) => !known.has(r.id);
  const records = rows
    .map((r) => ({
      ...r,
      id: key(r.id),
      superseded_by: key(r.superseded_by),
      superseded_at: r.superseded_at === null ? null : 'set',
      valid_from: fresh(r) ? 'set' : r.valid_from,
      recorded_at: fresh(r) ? 'set' : r.recorded_at,
      // a record the run creates itself (a profile fact) after the backfill waits for the next
      // run's backfill: whether a rerun already embedded it depends on where the kill fell
      pending_embedding: fresh(r) ? 'either' : r.pending_embedding,
      score: 0,
      // a cache of the text (its correctness is tested in exact-merges.test.ts): a run keys the
      // records it finds unkeyed, so a record the previous run created gets its key one run later
      content_key: 'derived',
    }))
    .sort((a, b) => String(a.id).localeCompare(String(b.id)));
  const scores = new Map(rows.map((r) => [key(r.id)!, r.score]));
  const edges = rowsOf<{ from_id: string; to_id: string; rel_type: string; weight: number }>(
    path,
    'SELECT from_id, to_id, rel_type, weight FROM edges',
  )
    .map(
      (e) =>
        `${keyOf.get(e.from_id) ?? e.from_id}→${keyOf.get(e.to_id) ?? e.to_id} ${e.rel_type} ${e.weight}`,
    )
    .sort();
  const out: Record<string, unknown[]> = {};
  for (const [name, sql] of Object.entries(extra)) out[name] = rowsOf(path, sql);
  return { records, scores, edges, extra: out };
}

/** Expect `got` to be identical to `want` in the sense above. */
export function expectSameOutcome(got: Comparable, want: Comparable, label: string): void {
  expect(got.records.length, `${label}: record count`).toBe(want.records.length);
  expect(got.records, `${label}: records`).toEqual(want.records);
  expect(got.edges, `${label}: edges`).toEqual(want.edges);
  expect(got.extra, `${label}: derived tables`).toEqual(want.extra);
  const drift: string[] = [];
  for (const [id, s] of want.scores) {
    const g = got.scores.get(id);
    if (g === undefined || Math.abs(g - s) > 0.0001 + 1e-9) drift.push(`${id}: ${g} vs ${s}`);
  }
  expect(drift, `${label}: scores beyond one rounding step`).toEqual([]);
}
