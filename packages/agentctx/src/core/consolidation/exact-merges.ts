import { createHash } from 'node:crypto';
import { keyWriter, sharedKeyIds, unkeyedCurrent } from '../../database/content-keys.js';
import type { Db } from '../../database/open.js';
import { type MergePlan, normalizeText, planExactMerges, SKIP_TYPES } from './duplicates.js';
import { dupInputsOf } from './inputs.js';
import { type SliceOptions, writeInSlices } from './slices.js';

/**
 * Exact duplicates without normalising the whole namespace on every run (issue 20). Each record
 * stores a content key (migration 14): a hash of its type and its title and body as
 * `normalizeText` folds them, so two records are exact duplicates only if their keys are equal.
 * A run keys the current records that lack one (new or rewritten since: a trigger clears the key
 * of a record whose type, title or body changes), then reads from an index the records whose key
 * another current record of the namespace shares, and plans with `planExactMerges` over those
 * alone. That plan is the one `planExactMerges` makes over every current record: every group it
 * merges shares one key, and it compares the normalised texts itself, so a hash collision merges
 * nothing. A record rewritten between being read here and being keyed keeps no key, and is left
 * for the next run.
 */

/** The content key of a record: type, title and body as exact-duplicate detection compares them. */
export function contentKey(type: string, title: string, body: string): string {
  // normalizeText leaves only letters, digits and single spaces: NUL cannot occur inside a part
  return createHash('sha256')
    .update(`${type}\u0000${normalizeText(title)}\u0000${normalizeText(body)}`)
    .digest('base64url')
    .slice(0, 22);
}

interface KeyedMerges {
  plans: MergePlan[];
  /** How many records were keyed this run. */
  keyed: number;
}

/** Key the unkeyed current records (in short slices), then plan the exact merges from the keys. */
export function planKeyedMerges(
  db: Db,
  namespaces: readonly string[],
  threshold: number,
  afterSlice: (done: number) => void = () => {},
  slice?: SliceOptions,
): KeyedMerges {
  const rows = unkeyedCurrent(db, namespaces);
  const write = keyWriter(db);
  let keyed = 0;
  writeInSlices(
    db,
    rows,
    (r) => {
      if (write(r, contentKey(r.type, r.title, r.body))) keyed++;
    },
    afterSlice,
    slice,
  );
  const ids = sharedKeyIds(db, namespaces, [...SKIP_TYPES]);
  return { plans: planExactMerges(dupInputsOf(db, ids), threshold), keyed };
}
