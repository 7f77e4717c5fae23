/**
 * Questions about when something happened ("When did we switch to pnpm?", "How long has the
 * cache been on?") are answered by records that say when: "last week", "yesterday", "three days
 * ago", "in March", "since 2023". The rank lifts such records for such questions
 * (TUNING.whenBoost in rank.ts). Plain ASCII patterns, the record pattern built on first use:
 * a prompt that asks no such question pays for none of it.
 */

/** The question asks for a time: when, how long, since when, what date/day/year/month/time. */
const ASKS_WHEN =
  /(?:^|[.?!;]\s*|\b(?:and|but|so)\s+)(?:when\b|since when\b|how long\b|how many (?:days|weeks|months|years)\b|(?:what|which) (?:date|day|year|month|time)\b)/;

/** Does the (lower-cased) query ask when something happened or how long it lasted? */
export function asksWhen(foldedQuery: string): boolean {
  return ASKS_WHEN.test(foldedQuery.trimStart());
}

const UNIT =
  '(?:second|minute|hour|day|night|week|weekend|month|year|decade|summer|winter|spring|fall|autumn)s?';
const DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MONTH =
  '(?:january|february|march|april|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)';
const NUMBER =
  '(?:\\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|a few|few|several|a couple of|couple of)';

let statesTimePattern: RegExp | undefined;

function timePattern(): RegExp {
  statesTimePattern ??= new RegExp(
    [
      '\\b(?:yesterday|today|tonight|tomorrow|recently|lately|earlier this|this morning|the other day)\\b',
      `\\b(?:last|next|this|past|previous|coming|few|since)\\s+(?:${UNIT}|${DAY}|${MONTH})\\b`,
      `\\b${NUMBER}\\s+${UNIT}\\s+(?:ago|back|later|before|earlier)\\b`,
      `\\bfor\\s+${NUMBER}\\s+${UNIT}\\b`,
      `\\b(?:on|last|this|next)\\s+${DAY}\\b`,
      `\\b(?:in|since|during|early|late|mid|of|on)\\s+${MONTH}\\b`,
      `\\b${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?\\b`,
      '\\b(?:19|20)\\d\\d\\b',
    ].join('|'),
  );
  return statesTimePattern;
}

/** Does the (lower-cased) text state when something happened or how long it lasted? */
export function statesTime(foldedText: string): boolean {
  return timePattern().test(foldedText);
}
