import { existsSync, readFileSync } from 'node:fs';
import { MIGRATIONS } from '../../src/database/migrations.js';
import { Db as Database } from '../../src/database/sqlite.js';
import type { GeneratedSecret } from './secret-arbitraries.js';

/**
 * A store as agentctx kept it before the redaction gate: records written straight with SQL
 * (so the gate never sees them), secrets in titles, bodies and superseded rows, the
 * word-frequency copy built from the index, and a stored vector for every record. Also the
 * readers the scrub tests check: every text value of every table, and the raw bytes of the file
 * and its WAL.
 */

type Db = Database;

export interface LegacyRow {
  id: string;
  title: string;
  body: string;
  /** A superseded row: the id of the record that replaced it. */
  supersededBy?: string;
  type?: string;
  projectId?: string;
}

let seq = 0;
/** A ULID-shaped id that sorts in insertion order. */
export function legacyId(): string {
  seq++;
  return `01LEGACY${String(seq).padStart(18, '0')}`;
}

/** Insert rows as an old version did: no gate, the FTS triggers indexing them verbatim. */
export function insertLegacy(db: Db, projectId: string, rows: readonly LegacyRow[]): void {
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, valid_from, recorded_at, source, superseded_at, superseded_by)
     VALUES (?, ?, ?, ?, ?, ?, ?, 'cli', ?, ?)`,
  );
  const vec = db.prepare('INSERT OR REPLACE INTO records_vec_js (record_id, embedding) VALUES (?, ?)');
  const at = '2025-06-01T10:00:00.000Z';
  db.transaction(() => {
    // heads first: a superseded row points at its successor
    for (const r of [...rows].sort(
      (a, b) => Number(Boolean(a.supersededBy)) - Number(Boolean(b.supersededBy)),
    )) {
      ins.run(
        r.id,
        r.projectId ?? projectId,
        r.type ?? 'decision',
        r.title,
        r.body,
        at,
        at,
        r.supersededBy ? at : null,
        r.supersededBy ?? null,
      );
      vec.run(r.id, Buffer.from(new Float32Array([0.5, 0.25, 0.125, 1]).buffer));
    }
  })();
}

/**
 * Rows for generated secrets: every third one a chain whose superseded row holds the secret
 * (the head says it was rotated), every fourth with the secret in the title too. Each title
 * holds `marker` and its index, so a search or a prompt finds them.
 */
export function legacyRows(samples: readonly GeneratedSecret[], marker: string): LegacyRow[] {
  const rows: LegacyRow[] = [];
  samples.forEach((s, i) => {
    const title = i % 4 === 1 ? `${marker} sample ${i} ${s.text.slice(0, 300)}` : `${marker} sample ${i}`;
    if (i % 3 === 0) {
      const head = legacyId();
      rows.push({
        id: head,
        title: `${marker} sample ${i} rotated`,
        body: `${marker} rotated; the key now lives in the vault`,
      });
      rows.push({ id: legacyId(), title, body: s.text, supersededBy: head });
    } else {
      rows.push({ id: legacyId(), title, body: s.text });
    }
  });
  return rows;
}

/** Build the word-frequency copy the way consolidation does (it holds every indexed word). */
export function buildTermDf(db: Db): void {
  db.exec('DELETE FROM term_df; INSERT INTO term_df (term, doc) SELECT term, doc FROM records_fts_vocab;');
  const n = db.prepare('SELECT COALESCE(MAX(rowid), 0) AS m, COUNT(*) AS c FROM records').get() as {
    m: number;
    c: number;
  };
  db.prepare("INSERT OR REPLACE INTO term_df_meta (key, value) VALUES ('built', ?)").run(
    JSON.stringify({ maxRowid: n.m, records: n.c }),
  );
}

/** Make the file look like one an older version left: no scrub bookkeeping, the schema before it. */
export function asOldVersion(db: Db): void {
  const before = MIGRATIONS.findIndex((m) => m.includes('CREATE TABLE scrub_state'));
  // the tables of that migration and of every later one go, so that they all run again
  const later = MIGRATIONS.slice(before);
  const all = (re: RegExp) => later.flatMap((m) => [...m.matchAll(re)]);
  const tables = all(/CREATE TABLE (\w+)/g).map((x) => x[1]);
  // and what they added to older tables: their triggers, indexes and columns
  const triggers = all(/CREATE TRIGGER (?:IF NOT EXISTS )?(\w+)/g).map(
    (x) => `DROP TRIGGER IF EXISTS ${x[1]};`,
  );
  const indexes = all(/CREATE (?:UNIQUE )?INDEX (?:IF NOT EXISTS )?(\w+)/g).map(
    (x) => `DROP INDEX IF EXISTS ${x[1]};`,
  );
  const columns = all(/ALTER TABLE (\w+) ADD COLUMN (\w+)/g).map(
    (x) => `ALTER TABLE ${x[1]} DROP COLUMN ${x[2]};`,
  );
  db.exec(
    `${[...triggers, ...indexes, ...columns].join(' ')} ${tables.map((t) => `DROP TABLE IF EXISTS ${t};`).join(' ')} PRAGMA user_version = ${before};`,
  );
}

/** Every text value of every table (FTS shadow tables included, BLOBs read as UTF-8). */
export function storeText(db: Db): string {
  const names = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table'").all() as { name: string }[];
  const parts: string[] = [];
  for (const { name } of names) {
    try {
      for (const row of db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[])
        for (const v of Object.values(row))
          if (typeof v === 'string') parts.push(v);
          else if (Buffer.isBuffer(v)) parts.push(v.toString('latin1'));
    } catch {
      // a virtual table whose module is not loaded here
    }
  }
  return parts.join('\n');
}

/** The raw bytes of the store file, its WAL and its shared-memory index, as text. */
export function rawStoreBytes(dbPath: string): string {
  return ['', '-wal', '-shm']
    .map((s) => dbPath + s)
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n');
}

/** Checkpoint the WAL into the file and truncate it (from this process), then read the raw bytes. */
export function rawStoreBytesAfterCheckpoint(dbPath: string): string {
  const db = new Database(dbPath);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
  return rawStoreBytes(dbPath);
}

/**
 * The 12-character pieces of the samples' secrets found in `text` (the whole of a shorter
 * secret): as written, and with `anyCase` (raw bytes, and the full-text index, which keeps words
 * lower-cased) lower-cased too. One pass over the text, however many secrets.
 */
export function leakedPieces(samples: readonly GeneratedSecret[], text: string, anyCase = false): string[] {
  const W = 12;
  // Rabin-Karp over W characters: the text is scanned with a rolling hash, and a window is cut
  // out as a string only where its hash is a piece's. Cutting every window of a store's bytes
  // made millions of short strings, and V8 sometimes fell off a cliff there (64 s for one run).
  const B = 31;
  let top = 1; // B^(W-1) mod 2^32
  for (let i = 1; i < W; i++) top = Math.imul(top, B);
  const hashOf = (t: string, from: number) => {
    let h = 0;
    for (let i = from; i < from + W; i++) h = (Math.imul(h, B) + t.charCodeAt(i)) | 0;
    return h;
  };
  const pieces = new Map<number, Map<string, string>>();
  const add = (p: string, original: string) => {
    const h = hashOf(p, 0);
    const bucket = pieces.get(h) ?? new Map<string, string>();
    pieces.set(h, bucket);
    bucket.set(p, original);
  };
  const short: string[] = [];
  for (const s of samples)
    for (const v of s.secrets) {
      if (v.length <= W) {
        short.push(v);
        continue;
      }
      for (let i = 0; i + W <= v.length; i++) {
        const p = v.slice(i, i + W);
        add(p, p);
        if (anyCase) add(p.toLowerCase(), p);
      }
    }
  const found = new Set<string>();
  const scan = (t: string) => {
    if (t.length < W) return;
    let h = hashOf(t, 0);
    for (let i = 0; ; i++) {
      const bucket = pieces.get(h);
      if (bucket) {
        const hit = bucket.get(t.slice(i, i + W));
        if (hit !== undefined) found.add(hit);
      }
      if (i + W >= t.length) break;
      h = (Math.imul(h - Math.imul(t.charCodeAt(i), top), B) + t.charCodeAt(i + W)) | 0;
    }
  };
  scan(text);
  if (anyCase) scan(text.toLowerCase());
  const lower = anyCase ? text.toLowerCase() : text;
  for (const v of short) if (text.includes(v) || (anyCase && lower.includes(v.toLowerCase()))) found.add(v);
  return [...found];
}
