import { NEAR_DUPLICATE } from './duplicates.js';
import type { NearRow } from './plan.js';

/**
 * A pre-filter for the keyword near-duplicate scan: which records have no possible partner, so
 * that their FTS query (the scan's whole cost: BM25 over every record holding one of their rare
 * words, across the store) can be skipped without changing what the scan finds.
 *
 * `similarity` (duplicates.ts) is 0.7 × Dice + 0.3 × a ratio capped at 1, rounded to thousandths;
 * it reaches NEAR_DUPLICATE only when Dice ≥ (NEAR_DUPLICATE − 0.0005 − 0.3) / 0.7 ≈ 0.4279. A
 * record with no current record of its namespace and type at that Dice can pair with nothing,
 * whatever BM25 says. Finding out is a set-similarity join: each record's
 * terms become numbers, every term of a (namespace, type) group lists its members, and a
 * record's shared-term counts with the others of its group are summed through those lists
 * (stopping at the first record that reaches the floor). (A prefix filter on rarest-first terms
 * indexes less, but at a Dice floor this low the prefix is three quarters of a record and
 * verifying its candidates one by one cost 40 s at 12,000 records.) Records that pass are scanned as before: the same query, the
 * same hits, the same candidates.
 */

/** Just below the least Dice that can still round to NEAR_DUPLICATE (float slack on the safe side). */
export const DICE_FLOOR = (NEAR_DUPLICATE - 0.0005 - 0.3) / 0.7 - 1e-6;

export interface DiceIndex {
  /** False only when no other record of `id`'s namespace and type reaches DICE_FLOOR with it. */
  mayHavePartner(id: string): boolean;
}

/** Index `rows` (current records of the scanned namespaces); `termsOf` as the scan computes them. */
export function buildDiceIndex(rows: readonly NearRow[], termsOf: (r: NearRow) => Set<string>): DiceIndex {
  const termId = new Map<string, number>();
  const raw: number[][] = rows.map((r) => {
    const ids: number[] = [];
    for (const t of termsOf(r)) {
      let k = termId.get(t);
      if (k === undefined) {
        k = termId.size;
        termId.set(t, k);
      }
      ids.push(k);
    }
    return ids;
  });
  // one global order: rarest first (fewest records), then by id
  const freq = new Int32Array(termId.size);
  for (const ids of raw) for (const k of ids) freq[k]!++;
  const order = Array.from({ length: termId.size }, (_, k) => k).sort((a, b) => freq[a]! - freq[b]! || a - b);
  const rank = new Int32Array(termId.size);
  order.forEach((k, i) => {
    rank[k] = i;
  });
  const sets: Int32Array[] = raw.map((ids) => Int32Array.from(ids, (k) => rank[k]!).sort());
  const group = rows.map((r) => `${r.project_id}\u0000${r.type}`);
  // every term's members, per (namespace, type) group
  const postings = new Map<string, Map<number, number[]>>();
  sets.forEach((s, i) => {
    let g = postings.get(group[i]!);
    if (!g) {
      g = new Map();
      postings.set(group[i]!, g);
    }
    for (const k of s) {
      const list = g.get(k);
      if (list) list.push(i);
      else g.set(k, [i]);
    }
  });
  const at = new Map(rows.map((r, i) => [r.id, i]));
  const count = new Int32Array(rows.length);
  const seen = new Int32Array(rows.length);
  let stamp = 0;
  return {
    mayHavePartner(id) {
      const i = at.get(id);
      if (i === undefined) return true; // not indexed: let the scan decide
      const s = sets[i]!;
      if (s.length === 0) return false; // similarity is 0 for an empty term set
      const g = postings.get(group[i]!)!;
      stamp++;
      // shared terms counted through the postings: Dice(x, y) ≥ floor ⇔ 2·shared ≥ floor·(|x| + |y|)
      for (const k of s) {
        for (const j of g.get(k)!) {
          if (j === i) continue;
          if (seen[j] !== stamp) {
            seen[j] = stamp;
            count[j] = 0;
          }
          if (2 * ++count[j]! >= DICE_FLOOR * (s.length + sets[j]!.length)) return true;
        }
      }
      return false;
    },
  };
}
