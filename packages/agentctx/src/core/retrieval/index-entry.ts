import { formatAge } from '../../shared/age.js';
import { estimateTokens } from '../../shared/tokens.js';
import type { Confidence, RecordType } from '../../shared/types.js';
import type { SearchHit } from './search-types.js';

/** One line of the compact index that search-like surfaces return (SPEC §5, ≤ 50 tokens). */
export interface IndexEntry {
  id: string;
  type: RecordType;
  title: string;
  age: string;
  confidence: Confidence;
  score: number;
  superseded?: true;
}

export const INDEX_ENTRY_TOKENS = 50;

/**
 * The tokens an entry costs, counted on its values: the id, type, title, age, confidence and
 * score. JSON punctuation and key names are the channel's framing, the same for every entry.
 */
export function indexEntryTokens(entry: IndexEntry): number {
  return estimateTokens(
    [entry.id, entry.type, entry.title, entry.age, entry.confidence, entry.score].join(' '),
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
  return { ...entry, title };
}

export function toIndexEntry(hit: SearchHit, now: Date): IndexEntry {
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
  return fitTitle(entry);
}
