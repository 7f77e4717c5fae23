/**
 * Keep an injection under an agent's cap by construction: whole lines from the top while the
 * agent's own measure of the text stays within the cap; a first line alone over it is cut by
 * characters (never inside a surrogate pair). The injection budgets normally keep texts far
 * below every cap; this is the guarantee, not the budget.
 */
export function fitToCap(text: string, measure: (s: string) => number, cap: number): string {
  if (measure(text) <= cap) return text;
  const lines = text.split('\n');
  let kept = '';
  for (let i = 0; i < lines.length; i++) {
    const next = i === 0 ? lines[0]! : `${kept}\n${lines[i]}`;
    if (measure(next) > cap) break;
    kept = next;
  }
  if (kept.trim()) return kept.trimEnd();
  // nothing but blank lines fit before a line longer than the cap: the longest prefix that fits
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(text.slice(0, mid)) <= cap) lo = mid;
    else hi = mid - 1;
  }
  let end = lo;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1; // a lone high surrogate would be invalid text
  return text.slice(0, end).trimEnd();
}

export function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}
