/** "Did you mean …?" for mistyped commands and options: the nearest names by edit distance. */

/** Levenshtein distance (insertions, deletions, substitutions; one each). */
export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/**
 * The known names closest to `typed`: those within a third of its length (at least 1, at
 * most 3 edits), or that it is a prefix of; best first, at most three.
 */
export function nearest(typed: string, names: readonly string[]): string[] {
  const t = typed.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(t.length / 3)));
  return names
    .map((n) => ({ n, d: n.startsWith(t) && t.length >= 2 ? 0.5 : editDistance(t, n) }))
    .filter((x) => x.d <= limit)
    .sort((x, y) => x.d - y.d || (x.n < y.n ? -1 : 1))
    .slice(0, 3)
    .map((x) => x.n);
}
