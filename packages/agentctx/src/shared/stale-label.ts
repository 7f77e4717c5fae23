/**
 * How a record whose linked files changed since it was written is labelled wherever it is shown
 * (prompt injection, the SessionStart digest, ctx_search, the dashboard): never as if current.
 */

export interface StaleFile {
  path: string;
  /** changed: content differs; deleted: gone, no rename known; renamed: moved (new_path) and changed. */
  state: 'changed' | 'deleted' | 'renamed';
  new_path: string | null;
  /** Commits touching the file since the anchor commit; 0: uncommitted edits only; null: unknown. */
  commits: number | null;
  /** Estimated share of lines changed (0–1); null when unknown. */
  changed_share: number | null;
}

const SEVERITY = { deleted: 3, renamed: 2, changed: 1 } as const;

/** The file that weighs most: a deletion first, then the most commits, then the most lines. */
function worstFile(files: readonly StaleFile[]): StaleFile | undefined {
  return [...files].sort(
    (a, b) =>
      SEVERITY[b.state] - SEVERITY[a.state] ||
      (b.commits ?? 0) - (a.commits ?? 0) ||
      (b.changed_share ?? 0) - (a.changed_share ?? 0) ||
      a.path.localeCompare(b.path),
  )[0];
}

function howMuch(f: StaleFile): string {
  const parts: string[] = [];
  if (f.commits !== null) {
    parts.push(f.commits === 0 ? 'uncommitted edits' : `${f.commits} commit${f.commits === 1 ? '' : 's'}`);
  }
  if (f.changed_share !== null) parts.push(`~${Math.max(1, Math.round(f.changed_share * 100))}% of lines`);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

function fileWords(f: StaleFile): string {
  if (f.state === 'deleted') return `${f.path} was deleted`;
  if (f.state === 'renamed') return `${f.path} moved to ${f.new_path ?? '?'} and changed since${howMuch(f)}`;
  return `${f.path} changed since${howMuch(f)}`;
}

/** "may be outdated: src/billing/charge.ts changed since (14 commits, ~30% of lines)". */
export function staleLabel(files: readonly StaleFile[]): string {
  const w = worstFile(files);
  if (!w) return '';
  const more = files.length > 1 ? ` and ${files.length - 1} more file${files.length === 2 ? '' : 's'}` : '';
  return `may be outdated: ${fileWords(w)}${more}`;
}

/** The short form for the ctx_search index (a few tokens): "charge.ts changed, 14 commits". */
export function staleShort(files: readonly StaleFile[]): string {
  const w = worstFile(files);
  if (!w) return '';
  const base = w.path.split('/').pop() ?? w.path;
  if (w.state === 'deleted') return `${base} deleted`;
  const n = w.commits && w.commits > 0 ? `, ${w.commits} commit${w.commits === 1 ? '' : 's'}` : '';
  return `${base} changed${n}`;
}
