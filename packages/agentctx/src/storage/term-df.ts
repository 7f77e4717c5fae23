import type BetterSqlite3 from 'better-sqlite3';
import type { QueryTerm } from './fts-query.js';
import type { Db } from './open.js';

/**
 * Document frequencies of the indexed words. fts5vocab counts a word's documents by walking its
 * whole posting list on every lookup: at 100,000 records the 30 words of a long prompt cost
 * about 12 ms. `term_df` (migration 5) is a copy of those counts that consolidation rebuilds
 * when the store has grown or shrunk; lookups read it and fall back to fts5vocab for words it
 * does not hold (written since the rebuild), so nothing indexed is ever counted as absent.
 * Counts of older words may lag by the records since the rebuild: they only weigh terms.
 */

/** Records added or removed since the last rebuild (share of the store) that call for another. */
const REBUILD_SHARE = 0.02;
const REBUILD_MIN = 200;

export interface TermDfRebuild {
  rebuilt: boolean;
  terms: number;
}

/** Rebuild `term_df` from fts5vocab when it is missing or the store changed enough since. */
export function refreshTermDf(db: Db): TermDfRebuild {
  const now = db
    .prepare('SELECT COALESCE(MAX(rowid), 0) AS maxRowid, COUNT(*) AS records FROM records')
    .get() as { maxRowid: number; records: number };
  const meta = db.prepare("SELECT value FROM term_df_meta WHERE key = 'built'").get() as
    | { value: string }
    | undefined;
  const built = meta ? (JSON.parse(meta.value) as { maxRowid: number; records: number }) : null;
  const threshold = Math.max(REBUILD_MIN, Math.ceil(now.records * REBUILD_SHARE));
  const stale =
    !built || now.maxRowid - built.maxRowid > threshold || Math.abs(now.records - built.records) > threshold;
  if (!stale) return { rebuilt: false, terms: -1 };
  const terms = db
    .transaction(() => {
      db.prepare('DELETE FROM term_df').run();
      const n = db
        .prepare('INSERT INTO term_df (term, doc) SELECT term, doc FROM records_fts_vocab')
        .run().changes;
      db.prepare("INSERT OR REPLACE INTO term_df_meta (key, value) VALUES ('built', ?)").run(
        JSON.stringify({ maxRowid: now.maxRowid, records: now.records, terms: n }),
      );
      return n;
    })
    .immediate();
  return { rebuilt: true, terms };
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
type Statement = BetterSqlite3.Statement<unknown[]>;

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
    exact: db.prepare<unknown[]>(`SELECT doc FROM ${table} WHERE term = ?`),
    range: db.prepare<unknown[]>(
      `SELECT COALESCE(SUM(doc), 0) AS n FROM ${table} WHERE term >= ? AND term < ?`,
    ),
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
