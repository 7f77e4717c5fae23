import { type StaleFile, staleLabel } from '../../shared/stale-label.js';
import type { ContextRecord } from '../../shared/types.js';

/** One record as one line of the digest: flattened, cut to length, marked when inferred. */

export interface Line {
  text: string;
  id?: string;
}

export const UNCONFIRMED = '(unconfirmed) ';

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1).replace(/\s+\S*$/, '')}…`;
}

/** Words ending in a full stop that do not end a sentence. */
const ABBREVIATION = /(?:^|[\s(])(?:e\.g|i\.e|etc|vs|cf|approx|incl|resp|no|fig|et al)\.$/i;

/** Text up to the first full stop, ! or ? that ends a sentence (not "e.g.", "v1.2" or "a.b"). */
export function firstSentence(text: string): string {
  const re = /[.!?](?=\s|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const upto = text.slice(0, m.index + 1);
    if (!ABBREVIATION.test(upto)) return upto;
  }
  return text;
}

/** The body's first sentence when it says more than the title; '' otherwise. */
function gist(rec: ContextRecord, max: number): string {
  const body = rec.body.split('\nWhy it changed:')[0] ?? rec.body;
  const flat = oneLine(body);
  if (!flat) return '';
  const sentence = cut(firstSentence(flat), max);
  const title = oneLine(rec.title).toLowerCase();
  if (title.includes(sentence.toLowerCase().replace(/[.!?…]+$/, ''))) return '';
  return sentence;
}

/** A record whose linked files changed since is never shown as if current: the label says so. */
export function recordLine(rec: ContextRecord, gistMax: number, stale?: readonly StaleFile[]): Line {
  const title = oneLine(rec.title).replace(/[.:;]+$/, '');
  const g = gist(rec, gistMax);
  const mark = rec.confidence === 'inferred' ? UNCONFIRMED : '';
  const note = stale?.length ? ` [${cut(staleLabel(stale), 160)}]` : '';
  return { text: `- ${mark}${title}${g ? ` — ${g}` : ''}${note}`, id: rec.id };
}
