import type { Db } from '../../database/open.js';
import { staleFilesOf } from '../../database/staleness-repo.js';
import { formatAge } from '../../shared/age.js';
import { type StaleFile, staleShort } from '../../shared/stale-label.js';
import { estimateTokens } from '../../shared/tokens.js';
import type { Confidence, RecordType } from '../../shared/types.js';
import type { SearchHit } from './search-types.js';

/** One line of the compact index search-like surfaces return (CONTRACTS.md §index-entry, ≤ 50 tokens). */
export interface IndexEntry {
  id: string;
  type: RecordType;
  title: string;
  age: string;
  confidence: Confidence;
  score: number;
  superseded?: true;
  /** "may be outdated": a linked file changed since ("charge.ts changed, 14 commits"). */
  stale?: string;
}

export const INDEX_ENTRY_TOKENS = 50;

/**
 * The tokens an entry costs, counted on its values: the id, type, title, age, confidence and
 * score. JSON punctuation and key names are the channel's framing, the same for every entry.
 */
export function indexEntryTokens(entry: IndexEntry): number {
  return estimateTokens(
    [entry.id, entry.type, entry.title, entry.age, entry.confidence, entry.score, entry.stale ?? ''].join(
      ' ',
    ),
  );
}

/** Shorten a title until the entry fits the per-result budget. */
function fitTitle(entry: IndexEntry): IndexEntry {
  let title = entry.title;
  while (indexEntryTokens({ ...entry, title }) > INDEX_ENTRY_TOKENS && title.length > 8) {
    title = `${[...title]
      .slice(0, Math.floor([...title].length * 0.8))
      .join('')
      .trimEnd()}…`;
  }
  const fitted = { ...entry, title };
  // a very long file name: the label shrinks to a word, never away
  if (fitted.stale && indexEntryTokens(fitted) > INDEX_ENTRY_TOKENS) fitted.stale = 'files changed';
  return fitted;
}

export function toIndexEntry(
  hit: SearchHit,
  now: Date,
  stale?: readonly StaleFile[],
  fit = true,
): IndexEntry {
  const r = hit.record;
  const entry: IndexEntry = {
    id: r.id,
    type: r.type,
    title: r.title,
    age: formatAge(r.valid_from, now),
    confidence: r.confidence,
    score: hit.score,
  };
  if (r.superseded_at) entry.superseded = true;
  else if (stale?.length) entry.stale = staleShort(stale);
  return fit ? fitTitle(entry) : entry;
}

/**
 * Index entries of search hits, each labelled when its linked files changed since
 * (record_staleness). `fit` keeps each within the 50-token budget a model's channel has (MCP);
 * the CLI passes false: a person's `--json` gets whole titles (issue 31 #8).
 */
export function indexEntriesOf(db: Db, hits: readonly SearchHit[], now: Date, fit = true): IndexEntry[] {
  const stale = staleFilesOf(
    db,
    hits.map((h) => h.record.id),
  );
  return hits.map((h) => toIndexEntry(h, now, stale.get(h.record.id), fit));
}
