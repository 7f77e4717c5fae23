import { AgentctxError, errorMessage } from '../shared/errors.js';
import { type QueryTerm, termKey } from '../text/terms.js';
import { buildMatchExpression } from './fts-match.js';
import { Db as Database } from './sqlite.js';

/** One indexed passage of a scratch index. */
interface ScratchDoc {
  key: number;
  text: string;
}

interface ScratchHit {
  key: number;
  /** -bm25: higher is better. */
  rank: number;
}

/**
 * A throwaway in-memory FTS5 index over a handful of passages (CLAUDE.md lines, for instance),
 * queried with the same term machinery as the store. Nothing touches the store file.
 */
export interface ScratchIndex {
  /** Passages matching any term, best BM25 first. */
  query(terms: readonly QueryTerm[], limit: number): ScratchHit[];
  /** In how many passages each term's FTS phrase matches. */
  docFreq(term: QueryTerm): number;
  readonly size: number;
  close(): void;
}

export function createScratchIndex(docs: readonly ScratchDoc[]): ScratchIndex {
  const db = new Database(':memory:');
  try {
    db.exec('CREATE VIRTUAL TABLE doc USING fts5(text)');
  } catch (err) {
    db.close();
    // CONTRACTS.md §rung-4: no passage index to measure coverage with
    throw new AgentctxError(
      'fts5_unavailable',
      `this SQLite has no FTS5, which the passage index of the CLAUDE.md check needs (${errorMessage(err)})`,
      {
        degraded: 'like-search',
      },
    );
  }
  const insert = db.prepare('INSERT INTO doc (rowid, text) VALUES (?, ?)');
  db.transaction(() => {
    for (const d of docs) insert.run(d.key, d.text);
  })();
  const dfCache = new Map<string, number>();
  return {
    size: docs.length,
    query(terms, limit) {
      const match = buildMatchExpression(terms);
      if (!match || docs.length === 0) return [];
      return db
        .prepare(
          `SELECT rowid AS key, -bm25(doc) AS rank FROM doc WHERE doc MATCH ? ORDER BY bm25(doc) LIMIT ${Math.max(1, Math.floor(limit))}`,
        )
        .all(match) as ScratchHit[];
    },
    docFreq(term) {
      const key = termKey(term);
      const cached = dfCache.get(key);
      if (cached !== undefined) return cached;
      const match = buildMatchExpression([term]);
      const n = match
        ? (db.prepare('SELECT COUNT(*) AS n FROM doc WHERE doc MATCH ?').get(match) as { n: number }).n
        : 0;
      dfCache.set(key, n);
      return n;
    },
    close() {
      db.close();
    },
  };
}
