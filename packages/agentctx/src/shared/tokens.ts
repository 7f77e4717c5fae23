/**
 * A conservative token estimate: it must not come out below what a real tokenizer counts,
 * for prose, code, hex ids, paths or non-English text, because every injection budget rests
 * on it. chars/4 is right for English prose and badly wrong for everything else; this walks
 * the text by character class instead.
 */
const SEGMENT =
  /[A-Z]?[a-z]+|[A-Z]+(?![a-z])|[0-9]+|[ \t]+|\r?\n|[\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e]|[^\x00-\x7f]|[\x00-\x08\x0b-\x1f\x7f]/gu;

function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}

function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}

/** Long runs that mix letters and digits (ULIDs, hashes, base64) cost nearly a token a character. */
const ID_LIKE = /[A-Za-z0-9+/=_-]{8,}/g;

function idLikeExtra(text: string): number {
  let extra = 0;
  for (const m of text.matchAll(ID_LIKE)) {
    const s = m[0];
    if (!/[0-9]/.test(s) || !/[A-Za-z]/.test(s)) continue;
    const floor = Math.ceil(s.length * 0.95);
    const counted = segmentTokens(s);
    if (floor > counted) extra += floor - counted;
  }
  return extra;
}

export function estimateTokens(text: string): number {
  if (!text) return 0;
  // +2: the first word of a text (no leading space) and the end of it tokenize worse
  return segmentTokens(text) + idLikeExtra(text) + 2;
}

function segmentTokens(text: string): number {
  let tokens = 0;
  for (const m of text.matchAll(SEGMENT)) {
    const s = m[0];
    const n = s.length;
    const c = s.charCodeAt(0);
    const last = s.charCodeAt(n - 1);
    if (isLower(last)) {
      // a word (camelCase splits here): common ones are one token; names split more often
      tokens += isUpper(c) ? (n <= 3 ? 1 : Math.ceil(n / 3)) : n <= 6 ? 1 : Math.ceil(n / 4);
    } else if (isUpper(c)) {
      // acronyms and the letters of ids (ULIDs, base64) tokenize poorly
      tokens += Math.ceil(n / 2);
    } else if (c >= 48 && c <= 57) {
      tokens += Math.ceil(n / 2);
    } else if (c === 32 || c === 9) {
      // one space joins the next word; longer runs (indentation) cost extra
      tokens += n === 1 ? 0 : Math.ceil(n / 4);
    } else if (c === 10 || c === 13) {
      // a line break, and the next word starts without its space
      tokens += 2;
    } else if (c < 128) {
      tokens += 1;
    } else {
      // accented Latin, Greek, Cyrillic, CJK: about one each; emoji and other astral chars: more
      tokens += s.codePointAt(0)! > 0xffff ? 3 : 1;
    }
  }
  return tokens;
}

/** Cut `text` to whole lines whose estimate fits `budget` tokens. */
export function truncateLinesToBudget(text: string, budget: number): string {
  const out: string[] = [];
  let used = 0;
  for (const line of text.split('\n')) {
    const cost = estimateTokens(line) + 1;
    if (used + cost > budget) break;
    out.push(line);
    used += cost;
  }
  return out.join('\n');
}
