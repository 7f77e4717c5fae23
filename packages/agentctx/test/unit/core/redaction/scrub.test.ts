import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { redactorFingerprint } from '../../../../src/core/redaction/fingerprint.js';
import { redactorFor, redactSecrets } from '../../../../src/core/redaction/redact.js';
import { scrubStore } from '../../../../src/core/redaction/scrub.js';
import { type Db, openDb } from '../../../../src/database/open.js';
import {
  asOldVersion,
  buildTermDf,
  insertLegacy,
  leakedPieces,
  legacyId,
  legacyRows,
  rawStoreBytes,
  storeText,
} from '../../../support/legacy-store.js';
import {
  anySecret,
  type GeneratedSecret,
  SECRET_FAMILIES,
  withNoise,
} from '../../../support/secret-arbitraries.js';
import { tempDir } from '../../../support/tmp.js';

/**
 * The scrub of records stored before the redaction gate (issue 24): rows written with SQL as an
 * old version did, secrets in titles, bodies and history rows; after one scrub no 12-character
 * piece of any secret is left in any table, the full-text index, the word-frequency copy, or the
 * raw bytes of the file and its WAL, and the store is still consistent.
 */

let t: ReturnType<typeof tempDir>;
let n = 0;
beforeEach(() => {
  t = tempDir('agentctx-scrub-');
});
afterEach(() => t.cleanup());

const FP = redactorFingerprint([]);

/** A store (reopened as the new version opens an old one) holding the samples as legacy rows. */
function legacyStore(samples: readonly GeneratedSecret[], marker = 'zqold'): { db: Db; path: string } {
  const path = join(t.path, `s${n++}.db`);
  const first = openDb(path);
  insertLegacy(first, 'p1', legacyRows(samples, marker));
  buildTermDf(first);
  asOldVersion(first);
  first.close();
  return { db: openDb(path), path };
}

function ftsIntact(db: Db): void {
  db.prepare("INSERT INTO records_fts(records_fts, rank) VALUES ('integrity-check', 1)").run();
}

function scrub(db: Db, extra: Partial<Parameters<typeof scrubStore>[0]> = {}) {
  return scrubStore({ db, redact: redactSecrets, fingerprint: FP, ...extra });
}

describe('scrubStore', () => {
  it('keeps no piece of any secret of any family, in any table or in the file bytes', () => {
    // AGENTCTX_SCRUB_SAMPLES=100 reproduces the figure of docs/RELIABILITY.md ("Secrets")
    const per = Number(process.env.AGENTCTX_SCRUB_SAMPLES) || 12;
    const samples = Object.values(SECRET_FAMILIES).flatMap((arb) =>
      fc.sample(withNoise(arb), { numRuns: per, seed: per === 12 ? 2407 : 9001 }),
    );
    const { db, path } = legacyStore(samples);
    try {
      // the check can fail: the old store holds them, in rows and in the index
      expect(leakedPieces(samples, storeText(db)).length).toBeGreaterThan(samples.length);
      const before = db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number };
      const report = scrub(db);
      expect(report).toMatchObject({ full_pass: true, complete: true, scanned: before.n, vacuumed: true });
      expect(report.changed).toBeGreaterThanOrEqual(samples.length);
      expect(report.history_changed).toBe(Math.ceil(samples.length / 3));
      expect(report.secrets.count).toBeGreaterThanOrEqual(samples.length);
      expect(report.embeddings_dropped).toBe(report.changed);
      expect(report.wal_truncated).toBe(true);
      // the report holds kinds and counts, never a value
      expect(leakedPieces(samples, JSON.stringify(report), true)).toEqual([]);

      const left = [
        ...leakedPieces(samples, storeText(db)),
        ...leakedPieces(samples, rawStoreBytes(path), true),
      ];
      const secrets = samples.reduce((k, s) => k + s.secrets.length, 0);
      console.log(
        `scrub: secrets kept ${left.length === 0 ? 0 : 'SOME'} of ${secrets} (${samples.length} samples, ${before.n} rows, ${report.changed} rewritten, ${report.history_changed} history)`,
      );
      expect(left).toEqual([]);
      ftsIntact(db);
      const rows = db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number };
      expect(rows.n).toBe(before.n); // in place: nothing added, nothing lost
      // the rewritten records wait for new vectors; the index finds them by their words
      const pending = db.prepare('SELECT COUNT(*) AS n FROM records WHERE pending_embedding = 1').get() as {
        n: number;
      };
      expect(pending.n).toBeGreaterThanOrEqual(report.changed);
      const hits = db
        .prepare("SELECT COUNT(*) AS n FROM records_fts WHERE records_fts MATCH 'zqold'")
        .get() as { n: number };
      expect(hits.n).toBe(before.n);
      // the word-frequency copy was rebuilt from the scrubbed index
      const df = db.prepare('SELECT COUNT(*) AS n FROM term_df').get() as { n: number };
      const vocab = db.prepare('SELECT COUNT(*) AS n FROM records_fts_vocab').get() as { n: number };
      expect(df.n).toBe(vocab.n);
    } finally {
      db.close();
    }
  });

  it('property: generated secrets in titles, bodies and history never survive a scrub', () => {
    fc.assert(
      fc.property(fc.array(anySecret, { minLength: 1, maxLength: 6 }), (samples) => {
        const { db, path } = legacyStore(samples);
        try {
          scrub(db);
          expect(leakedPieces(samples, storeText(db))).toEqual([]);
          expect(leakedPieces(samples, rawStoreBytes(path), true)).toEqual([]);
          ftsIntact(db);
          // idempotent: a second run reads nothing new and changes nothing
          expect(scrub(db)).toMatchObject({ full_pass: false, scanned: 0, changed: 0, vacuumed: false });
        } finally {
          db.close();
        }
      }),
      { seed: 24071, numRuns: 15 },
    );
  });

  it('reads only the rows written since its last run, and everything again for a new redactor', () => {
    const samples = fc.sample(anySecret, { numRuns: 6, seed: 24072 });
    const { db } = legacyStore(samples);
    try {
      const first = scrub(db);
      expect(first.full_pass).toBe(true);
      const total = first.scanned;
      insertLegacy(db, 'p1', [
        {
          id: legacyId(),
          title: 'late row',
          body: 'written by a process that bypassed the gate: ghp_Zq8x1Lm0Vb2Nc3Xd4Ws5Ea6Rf7Tg8Yh9',
        },
      ]);
      const second = scrub(db);
      expect(second).toMatchObject({ full_pass: false, scanned: 1, changed: 1 });
      // a user pattern added later: every row is checked again with it
      const { redact } = redactorFor(['zqinternal-[0-9]{6}']);
      insertLegacy(db, 'p1', [
        { id: legacyId(), title: 'internal ids', body: 'ticket key zqinternal-123456 was shared' },
      ]);
      const third = scrubStore({ db, redact, fingerprint: redactorFingerprint(['zqinternal-[0-9]{6}']) });
      expect(third).toMatchObject({
        full_pass: true,
        scanned: total + 2,
        changed: 1,
        secrets: { kinds: { custom: 1 } },
      });
      expect(storeText(db)).not.toContain('zqinternal-123456');
    } finally {
      db.close();
    }
  });

  it('resumes a pass cut by its time box, and rebuilds the file once the pass is complete', () => {
    const samples = fc.sample(anySecret, { numRuns: 9, seed: 24073 });
    const { db, path } = legacyStore(samples);
    try {
      const total = (db.prepare('SELECT COUNT(*) AS n FROM records').get() as { n: number }).n;
      const cut = scrub(db, { batchSize: 4, budgetMs: 0, elapsed: () => 1 });
      expect(cut).toMatchObject({ complete: false, scanned: 4, vacuumed: false });
      let scanned = cut.scanned;
      let last = cut;
      for (let i = 0; i < total && !last.complete; i++) {
        last = scrub(db, { batchSize: 4, budgetMs: 0, elapsed: () => 1 });
        expect(last.full_pass).toBe(false);
        scanned += last.scanned;
      }
      expect(last.complete).toBe(true);
      expect(scanned).toBe(total);
      expect(last.vacuumed).toBe(true);
      expect(leakedPieces(samples, rawStoreBytes(path), true)).toEqual([]);
      ftsIntact(db);
    } finally {
      db.close();
    }
  });

  it('with the full-text index out of reach (no FTS5), scrubs the rows and the index once it is back', () => {
    const samples = fc.sample(anySecret, { numRuns: 6, seed: 24074 });
    const { db, path } = legacyStore(samples);
    // what a connection without FTS5 leaves (CONTRACTS.md §rung-4): triggers dropped, the index as
    // it was
    db.exec('DROP TRIGGER records_fts_ai; DROP TRIGGER records_fts_ad; DROP TRIGGER records_fts_au;');
    const blind = scrub(db);
    expect(blind).toMatchObject({ fts_optimized: false, term_df_rebuilt: false });
    expect(blind.changed).toBeGreaterThanOrEqual(samples.length);
    expect(db.prepare('SELECT COUNT(*) AS n FROM term_df').get()).toEqual({ n: 0 });
    // the stale index still holds the old words: the check can fail
    expect(leakedPieces(samples, rawStoreBytes(path), true).length).toBeGreaterThan(0);
    db.close();
    // a connection with FTS5 rebuilds the index from the scrubbed records; the next scrub merges
    // it and rebuilds the file, so none of the old words is left in the bytes
    const back = openDb(path);
    try {
      const after = scrub(back);
      expect(after).toMatchObject({ changed: 0, fts_optimized: true, vacuumed: true });
      expect(leakedPieces(samples, storeText(back))).toEqual([]);
      expect(leakedPieces(samples, rawStoreBytes(path), true)).toEqual([]);
      ftsIntact(back);
      expect(scrub(back)).toMatchObject({ fts_optimized: false, vacuumed: false });
    } finally {
      back.close();
    }
  });

  it('gives a profile title that would collide with another current key its row number', () => {
    const { db } = legacyStore([]);
    try {
      const gh = 'ghp_Q7w2Xr9LmN4bV8cZ1kT6yH3jF5dS0aPe8uRi';
      insertLegacy(db, 'p1', [
        { id: legacyId(), type: 'profile', title: '[REDACTED:github-token] deploy key', body: 'x' },
        { id: legacyId(), type: 'profile', title: `${gh} deploy key`, body: 'y' },
      ]);
      const report = scrub(db);
      expect(report.changed).toBe(1);
      const titles = db
        .prepare("SELECT rowid, title FROM records WHERE type = 'profile' ORDER BY rowid")
        .all();
      expect(titles).toEqual([
        { rowid: expect.any(Number), title: '[REDACTED:github-token] deploy key' },
        {
          rowid: expect.any(Number),
          title: expect.stringMatching(/^\[REDACTED:github-token\] deploy key \(\d+\)$/),
        },
      ]);
      expect(storeText(db)).not.toContain(gh.slice(4, 16));
    } finally {
      db.close();
    }
  });

  it('leaves clean records as they are, and does not rebuild the file when nothing changed', () => {
    const { db } = legacyStore([]);
    try {
      insertLegacy(db, 'p1', [
        {
          id: legacyId(),
          title: 'commit abc',
          body: 'commit 3f786850e387550fdab836ed7e6dc881de23001b fixed the build',
        },
      ]);
      const report = scrub(db);
      expect(report).toMatchObject({
        changed: 0,
        vacuumed: false,
        fts_optimized: false,
        embeddings_dropped: 0,
      });
      expect(storeText(db)).toContain('3f786850e387550fdab836ed7e6dc881de23001b');
    } finally {
      db.close();
    }
  });
});
