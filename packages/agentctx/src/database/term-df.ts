import { LOCK_PAUSE_MS, sleepSync } from '../shared/sleep.js';
import type { QueryTerm } from '../text/terms.js';
import type { Db } from './open.js';
import type { Statement } from './sqlite.js';

/**
 * Document frequencies of the indexed words. fts5vocab counts a word's documents by walking its
 * whole posting list on every lookup: at 100,000 records the 30 words of a long prompt cost
 * about 12 ms. `term_df` (migration 5) is a copy of those counts that every consolidation brings
 * up to date: records are only ever appended between runs (a deleted record or a rewritten
 * title or body drops the `built` mark, migration 13), so the run adds the words of the records
 * written since (rowid past the mark), counted by a temporary FTS5 table with the index's own
 * columns and tokenizer: the same words, the same counts, at the cost of the new records only.
 * Without the mark (first run, after a delete or a rewrite, or a deleted copy) the copy is made
 * whole from fts5vocab. After a run the copy equals fts5vocab (CONTRACTS.md §inv-7: deleting it and
 * consolidating changes no search). Between runs, lookups fall back to fts5vocab for words the
 * copy does not hold, so nothing indexed is ever counted as absent; counts of older words may
 * lag by the records written since the last run: they only weigh terms.
 */

interface TermDfRebuild {
  /** Whether the copy changed: made whole, or brought up to date with the records written since. */
  rebuilt: boolean;
  /** Distinct words in the copy after the run (-1: unchanged, not counted). */
  terms: number;
  /** How: copied whole from fts5vocab, or the new records' words added. */
  mode?: 'full' | 'added';
}

interface Built {
  maxRowid: number;
  records: number;
  terms: number;
}

function readBuilt(db: Db): Built | null {
  const meta = db.prepare("SELECT value FROM term_df_meta WHERE key = 'built'").get() as
    | { value: string }
    | undefined;
  if (!meta) return null;
  try {
    const b = JSON.parse(meta.value) as Partial<Built>;
    return typeof b.maxRowid === 'number' && typeof b.records === 'number' && typeof b.terms === 'number'
      ? (b as Built)
      : null;
  } catch {
    return null;
  }
}

function writeBuilt(db: Db, b: Built): void {
  db.prepare("INSERT OR REPLACE INTO term_df_meta (key, value) VALUES ('built', ?)").run(JSON.stringify(b));
}

/**
 * How long one write slice of a whole copy may hold the write lock, and its most rows; the
 * lock-free pause between two slices (LOCK_PAUSE_MS by default, as consolidation's slices) and what
 * blocks for it (injected for tests).
 */
interface CopySlice {
  maxMs?: number;
  cap?: number;
  pauseMs?: number;
  sleep?: (ms: number) => void;
}

/**
 * Make the copy equal to fts5vocab without holding the write lock for the whole copy (at
 * 100,000 records one INSERT … SELECT held it ~360 ms). A `built` mark saying "copying" is
 * committed first (readBuilt takes it for no mark); the counts are read in one read
 * transaction, outside any write lock, with the row count they belong to; the differences are
 * written in short IMMEDIATE slices; the real mark goes in last, and only if the "copying" mark
 * is still there: a delete or a rewritten title or body meanwhile drops it (the triggers of
 * migration 13), and the next run copies again. Records added meanwhile lie past the mark's
 * rowid and are added by the next run. A copy killed half-way leaves the "copying" mark: the
 * next run starts over; lookups meanwhile read counts from either state, which only weigh terms.
 */
function copyWhole(db: Db, afterSlice: () => void, slice: CopySlice): number {
  const maxMs = slice.maxMs ?? 15;
  const cap = Math.max(1, slice.cap ?? 5000);
  db.transaction(() => {
    db.prepare("INSERT OR REPLACE INTO term_df_meta (key, value) VALUES ('built', ?)").run(COPYING);
  }).immediate();
  afterSlice();
  const snap = db.transaction(() => ({
    now: db.prepare('SELECT COALESCE(MAX(rowid), 0) AS maxRowid, COUNT(*) AS records FROM records').get() as {
      maxRowid: number;
      records: number;
    },
    vocab: db.prepare('SELECT term, doc FROM records_fts_vocab').all() as { term: string; doc: number }[],
    held: db.prepare('SELECT term, doc FROM term_df').all() as { term: string; doc: number }[],
  }))();
  const want = new Map(snap.vocab.map((r) => [r.term, r.doc]));
  const ops: { term: string; doc: number | null }[] = [];
  for (const r of snap.held) if (!want.has(r.term)) ops.push({ term: r.term, doc: null });
  const had = new Map(snap.held.map((r) => [r.term, r.doc]));
  for (const [term, doc] of want) if (had.get(term) !== doc) ops.push({ term, doc });
  const upsert = db.prepare(
    'INSERT INTO term_df (term, doc) VALUES (?, ?) ON CONFLICT(term) DO UPDATE SET doc = excluded.doc',
  );
  const drop = db.prepare('DELETE FROM term_df WHERE term = ?');
  const pause = () => (slice.sleep ?? sleepSync)(slice.pauseMs ?? LOCK_PAUSE_MS);
  let i = 0;
  while (i < ops.length) {
    if (i > 0) pause();
    db.transaction(() => {
      const t0 = performance.now();
      const start = i;
      do {
        const op = ops[i++]!;
        if (op.doc === null) drop.run(op.term);
        else upsert.run(op.term, op.doc);
      } while (i < ops.length && i - start < cap && performance.now() - t0 < maxMs);
    }).immediate();
    afterSlice();
  }
  db.transaction(() => {
    const mark = db.prepare("SELECT value FROM term_df_meta WHERE key = 'built'").get() as
      | { value: string }
      | undefined;
    if (mark?.value === COPYING) writeBuilt(db, { ...snap.now, terms: want.size });
  }).immediate();
  return want.size;
}

const COPYING = '{"copying":true}';

/** The index's columns and tokenizer option, as its CREATE statement declares them. */
function indexShape(db: Db): { columns: string[]; tokenize: string } {
  const columns = (
    db.prepare("SELECT name FROM pragma_table_info('records_fts')").all() as { name: string }[]
  ).map((c) => c.name);
  const sql =
    (
      db.prepare("SELECT sql FROM sqlite_master WHERE name = 'records_fts'").get() as
        | { sql: string }
        | undefined
    )?.sql ?? '';
  const tok = /tokenize\s*=\s*('(?:[^']|'')*'|"(?:[^"]|"")*"|[\w]+)/i.exec(sql);
  return { columns, tokenize: tok ? `, tokenize=${tok[1]}` : '' };
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Add the words of the records past `after` (rowid) to the copy; the distinct words it then holds. */
function addNewRecords(db: Db, after: number): number {
  const { columns, tokenize } = indexShape(db);
  if (columns.length === 0) throw new Error('records_fts has no columns');
  const cols = columns.map(quote).join(', ');
  db.exec(`DROP TABLE IF EXISTS temp.term_df_delta_v; DROP TABLE IF EXISTS temp.term_df_delta;
    CREATE VIRTUAL TABLE temp.term_df_delta USING fts5(${cols}${tokenize});
    CREATE VIRTUAL TABLE temp.term_df_delta_v USING fts5vocab(temp, term_df_delta, row);`);
  try {
    db.prepare(
      `INSERT INTO temp.term_df_delta (rowid, ${cols}) SELECT rowid, ${cols} FROM records WHERE rowid > ?`,
    ).run(after);
    db.prepare(
      `INSERT INTO term_df (term, doc) SELECT term, doc FROM temp.term_df_delta_v WHERE true
       ON CONFLICT(term) DO UPDATE SET doc = doc + excluded.doc`,
    ).run();
  } finally {
    db.exec('DROP TABLE IF EXISTS temp.term_df_delta_v; DROP TABLE IF EXISTS temp.term_df_delta;');
  }
  return (db.prepare('SELECT COUNT(*) AS n FROM term_df').get() as { n: number }).n;
}

/**
 * Bring `term_df` up to date with the index: add the words of the records written since the
 * last run, or copy it whole, in slices (copyWhole), when that cannot be trusted (no mark; the
 * counts do not add up). `afterSlice` is called after every committed write transaction.
 */
export function refreshTermDf(
  db: Db,
  afterSlice: () => void = () => {},
  slice: CopySlice = {},
): TermDfRebuild {
  const quick = db
    .transaction((): TermDfRebuild | 'whole' => {
      const now = db
        .prepare('SELECT COALESCE(MAX(rowid), 0) AS maxRowid, COUNT(*) AS records FROM records')
        .get() as { maxRowid: number; records: number };
      const built = readBuilt(db);
      const fresh = built
        ? (
            db.prepare('SELECT COUNT(*) AS n FROM records WHERE rowid > ?').get(built.maxRowid) as {
              n: number;
            }
          ).n
        : 0;
      // a copy deleted beside its mark, or rows gone without the mark dropped: start from the index
      const trusted =
        built !== null &&
        built.records + fresh === now.records &&
        (built.terms === 0 || db.prepare('SELECT 1 FROM term_df LIMIT 1').get() !== undefined);
      if (!trusted) return 'whole';
      if (fresh === 0) return { rebuilt: false, terms: -1 };
      let terms: number;
      try {
        terms = addNewRecords(db, built.maxRowid);
      } catch {
        // an index shape the delta table cannot mirror: the whole copy is always right
        return 'whole';
      }
      writeBuilt(db, { ...now, terms });
      return { rebuilt: true, terms, mode: 'added' };
    })
    .immediate();
  if (quick !== 'whole') return quick;
  afterSlice();
  return { rebuilt: true, terms: copyWhole(db, afterSlice, slice), mode: 'full' };
}

/** Forget the copy (after records were deleted in bulk): lookups go to fts5vocab until the next rebuild. */
export function clearTermDf(db: Db): void {
  db.prepare('DELETE FROM term_df').run();
  db.prepare("DELETE FROM term_df_meta WHERE key = 'built'").run();
}

interface Source {
  exact: Statement;
  range: Statement;
}

/** A function giving a query term's document frequency (prefix terms: summed over their words). */
export function termDfLookup(db: Db): (t: QueryTerm) => number {
  const copy: Source | null = db.prepare('SELECT 1 FROM term_df LIMIT 1').get()
    ? source(db, 'term_df')
    : null;
  let index: Source | undefined; // prepared on first need: the hook pays for what it uses
  return (t) => {
    const n = copy ? count(copy, t) : 0;
    if (n > 0) return n;
    index ??= source(db, 'records_fts_vocab');
    return count(index, t);
  };
}

function source(db: Db, table: 'term_df' | 'records_fts_vocab'): Source {
  return {
    exact: db.prepare(`SELECT doc FROM ${table} WHERE term = ?`),
    range: db.prepare(`SELECT COALESCE(SUM(doc), 0) AS n FROM ${table} WHERE term >= ? AND term < ?`),
  };
}

function count(s: Source, t: QueryTerm): number {
  if (t.forms && t.forms.length > 0) {
    let n = 0;
    for (const f of t.forms) n += (s.exact.get(f) as { doc: number } | undefined)?.doc ?? 0;
    return n;
  }
  // y→i variants are whole words the prefix cannot reach (a record holding both counts twice:
  // the count only weighs the term)
  let n = 0;
  for (const v of t.variants ?? []) n += (s.exact.get(v) as { doc: number } | undefined)?.doc ?? 0;
  if (t.prefix) return n + (s.range.get(t.stem, `${t.stem}\u{10FFFF}`) as { n: number }).n;
  return n + ((s.exact.get(t.stem) as { doc: number } | undefined)?.doc ?? 0);
}
