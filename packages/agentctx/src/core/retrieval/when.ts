/**
 * Questions about when something happened ("When did we switch to pnpm?", "How long has the
 * cache been on?") are answered by records that say when: "last week", "yesterday", "three days
 * ago", "in March", "since 2023". The rank lifts such records for such questions
 * (TUNING.whenBoost in rank.ts). Word lookups rather than one large pattern: the hook runs cold,
 * and compiling a large alternation cost it about two milliseconds (measured).
 */

/** How a clause that asks for a time begins. */
const WHEN_STARTS = [
  'when ',
  'since when',
  'how long',
  'how many days',
  'how many weeks',
  'how many months',
  'how many years',
  'what date',
  'what day',
  'what year',
  'what month',
  'what time',
  'which date',
  'which day',
  'which year',
  'which month',
];
const JOINERS = ['and ', 'but ', 'so '];

/**
 * Does the (lower-cased) query ask when something happened or how long it lasted? A clause
 * (split at . ? ! ; ,) that begins so, or goes on so after "and"/"but"/"so": "when did…",
 * "how long has…", "and when was it fixed?"; not "what happens when the queue is full".
 */
export function asksWhen(foldedQuery: string): boolean {
  if (!foldedQuery.includes('when') && !foldedQuery.includes('how ') && !foldedQuery.includes('wh'))
    return false;
  for (const part of foldedQuery.split(/[.?!;,]/)) {
    let clause = `${part.trim()} `;
    for (const j of JOINERS) if (clause.startsWith(j)) clause = clause.slice(j.length);
    if (WHEN_STARTS.some((w) => clause.startsWith(w))) return true;
  }
  return false;
}

const words = (s: string): Set<string> => new Set(s.split(' '));

/** Words that state a time by themselves. */
const TIME_WORDS = words(
  'yesterday today tonight tomorrow recently lately ago monday tuesday wednesday thursday friday saturday sunday january february april june july august september october november december',
);
/** Units of time: "last week", "for 3 years", "this morning". */
const UNITS = words(
  'second seconds minute minutes hour hours day days night nights week weeks weekend weekends month months year years decade decades summer winter spring fall autumn morning afternoon evening',
);
/** Words that make the next unit, weekday or month a time: "last week", "since March". */
const BEFORE_UNIT = words('last next this past previous coming since');
/** Words that make "may" and "march" the months ("in May", "early March"). */
const BEFORE_MONTH = words('in since during early late mid of on last next this');
const NUMBER_WORDS = words('a an one two three four five six seven eight nine ten few several couple');

function isYear(w: string): boolean {
  if (w.length !== 4) return false;
  const n = Number(w);
  return Number.isInteger(n) && n >= 1900 && n <= 2099;
}

function isNumber(w: string): boolean {
  return NUMBER_WORDS.has(w) || (w.length > 0 && w.length <= 4 && Number.isInteger(Number(w)));
}

/** Does the (lower-cased) text state when something happened or how long it lasted? */
export function statesTime(foldedText: string): boolean {
  const ws = foldedText.match(/[a-z0-9]+/g);
  if (!ws) return false;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    if (TIME_WORDS.has(w) || isYear(w)) return true;
    const prev = i > 0 ? ws[i - 1]! : '';
    if ((w === 'may' || w === 'march') && BEFORE_MONTH.has(prev)) return true;
    if (UNITS.has(w)) {
      if (BEFORE_UNIT.has(prev)) return true;
      // "for 3 years", "for a few weeks", "the other day"
      if (isNumber(prev) && (ws[i - 2] === 'for' || ws[i - 3] === 'for')) return true;
      if (w === 'day' && prev === 'other' && ws[i - 2] === 'the') return true;
    }
  }
  return false;
}
