import type { Db } from '../../database/open.js';
import { type RetirementCounters, readRetirementCounters } from '../../database/retirement.js';
import { type WriterFilter, writerKey } from '../../database/writer-filter.js';
import { composeDigest } from './digest.js';
import { type Digest, readDigest, type StampedDigest, writeDigest } from './digest-file.js';

/**
 * CONTRACTS.md §inv-3 for the digest file, which the SessionStart hook reads without opening the
 * store.
 *
 * A digest is current iff the retirement counters (database/retirement.ts) are equal and equal to
 * its stamp: then no record was retired since it was composed, nor is any retirement half-way.
 *
 * Why this holds. Writers append to `begun` before their commit and to `done` after it. A
 * composer reads `done`, then `begun`; when they are equal (say S), nothing was in flight at
 * that moment, so every retirement counted in S is in the snapshot it composes from (taken
 * after the read). A retirement that commits later appended to `begun` after that read, so
 * `begun` > S from before its commit on. A reader reads the digest, then `done`, then `begun`:
 * `begun` == S means no retirement committed between the composer's read and this one, and
 * `done` == S also rules out a writer that resumed after consolidation equalised the counters
 * behind its back (`done` would be past `begun`).
 */

export function isCurrent(digest: StampedDigest, c: RetirementCounters): boolean {
  return digest.retire_stamp >= 0 && c.begun === c.done && c.begun === digest.retire_stamp;
}

/** The stamp to compose under now: the retirement count when none is in flight, else null. */
export function settledStamp(dbPath: string): number | null {
  const c = readRetirementCounters(dbPath);
  return c.begun === c.done ? c.begun : null;
}

const nap = new Int32Array(new SharedArrayBuffer(4));

interface StampedWrite<T extends StampedDigest> {
  /** The composed digest, or null when the counters never settled (nothing written). */
  digest: T | null;
  stamp: number | null;
}

/**
 * Compose (in one read transaction, begun after the counters were read) and write the digest
 * stamped with the retirement count, but only when no retirement is in flight; otherwise wait
 * `waitMs` and try again, `attempts` times in all. Nothing written means the digest on disk
 * keeps its older stamp, so SessionStart recomposes from the store.
 */
export function writeStampedDigest<T extends Digest>(
  db: Db,
  dir: string,
  projectId: string,
  compose: () => T,
  opts: { attempts?: number; waitMs?: number } = {},
): StampedWrite<T & StampedDigest> {
  if (db.inTransaction) throw new Error('writeStampedDigest: compose outside any open transaction');
  const attempts = Math.max(1, opts.attempts ?? 40);
  for (let i = 0; i < attempts; i++) {
    if (i > 0) Atomics.wait(nap, 0, 0, opts.waitMs ?? 50);
    const stamp = settledStamp(db.name);
    if (stamp === null) continue;
    const composed = db.transaction(compose)();
    const digest = { ...composed, retire_stamp: stamp };
    writeDigest(dir, projectId, digest);
    return { digest, stamp };
  }
  return { digest: null, stamp: null };
}

interface SessionDigestInput {
  dir: string;
  dbPath: string;
  project: { id: string; name: string };
  now: Date;
  /** The store, opened only when the digest on disk is not current; null when there is none. */
  store: () => Db | null;
  /** Whose records this session may be shown; the digest on disk must have been composed under it. */
  writers?: WriterFilter;
  /**
   * A digest for this session's writers alone: the file on disk, which serves every other
   * session, is neither read nor written; the digest is composed from the store each time.
   */
  own?: boolean;
}

function composeNow(db: Db, input: SessionDigestInput, stamp: number): StampedDigest {
  const composed = db.transaction(() =>
    composeDigest(db, input.project, {
      now: input.now,
      ...(input.writers ? { writers: input.writers } : {}),
    }),
  )();
  return {
    text: composed.text,
    ids: composed.ids,
    tokens: composed.tokens,
    generated_at: composed.generated_at,
    ...(composed.writers ? { writers: composed.writers } : {}),
    retire_stamp: stamp,
  };
}

/**
 * The digest a session starts with. The file on disk when it is current (no SQLite opened) and
 * was composed for the same writers; otherwise composed from the store now (keyword order,
 * stored drift counts: no model, no scan) and written back when no retirement is in flight, so
 * the next session is fast again. Null when there is no digest file at all (the caller's
 * first-run path) or no store.
 */
export function currentDigest(input: SessionDigestInput): StampedDigest | null {
  if (input.own) {
    const db = input.store();
    return db ? composeNow(db, input, -1) : null;
  }
  const onDisk = readDigest(input.dir, input.project.id);
  if (!onDisk) return null;
  const counters = readRetirementCounters(input.dbPath);
  const sameWriters = (onDisk.writers ?? '') === writerKey(input.writers);
  if (sameWriters && isCurrent(onDisk, counters)) return onDisk;
  const db = input.store();
  if (!db) return null;
  const digest = composeNow(db, input, counters.begun === counters.done ? counters.begun : -1);
  if (digest.retire_stamp >= 0) {
    try {
      writeDigest(input.dir, input.project.id, digest);
    } catch {
      // best effort: the next session recomposes
    }
  }
  return digest;
}
