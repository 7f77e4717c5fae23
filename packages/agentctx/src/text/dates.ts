/** The calendar period a query names ("in March", "June 2024"), read from its words. */

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** A month (0-11) and/or year a query names: "in March", "June 2024", "in 2023". */
export interface DateHint {
  month?: number;
  year?: number;
}

/**
 * The calendar period a query refers to, if any. "may" counts only as "in May" or "May 2024"
 * (otherwise it is the modal verb); a year alone must look like one (1990-2099).
 */
export function dateHint(text: string): DateHint | null {
  const lower = String(text ?? '')
    .slice(0, 20000)
    .toLowerCase();
  // most prompts name no date: skip compiling the patterns below (a cold hook pays for each)
  if (!MONTHS.some((name) => lower.includes(name)) && !/(?:19|20)\d\d/.test(lower)) return null;
  const hint: DateHint = {};
  const m =
    /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b(?:\s*,?\s*((?:19|20)\d\d)\b)?/.exec(
      lower,
    );
  if (m?.[1]) {
    const isModalMay =
      m[1] === 'may' && !m[2] && !/\b(?:in|of|during|since|early|late|mid)\s+may\b/.test(lower);
    if (!isModalMay) {
      hint.month = MONTHS.indexOf(m[1]);
      if (m[2]) hint.year = Number(m[2]);
    }
  }
  if (hint.year === undefined) {
    const y = /\b(?:in|of|during|since)\s+((?:19|20)\d\d)\b/.exec(lower);
    if (y?.[1]) hint.year = Number(y[1]);
  }
  return hint.month === undefined && hint.year === undefined ? null : hint;
}

/** Does an ISO date fall in the hinted period? */
export function inDateHint(iso: string, hint: DateHint): boolean {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return false;
  if (hint.year !== undefined && d.getUTCFullYear() !== hint.year) return false;
  if (hint.month !== undefined && d.getUTCMonth() !== hint.month) return false;
  return true;
}

/** A month name or a year: words a DateHint can satisfy. */
export function isDateWord(word: string): boolean {
  return MONTHS.includes(word) || /^(?:19|20)\d\d$/.test(word);
}
