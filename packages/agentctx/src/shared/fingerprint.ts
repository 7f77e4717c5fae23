/**
 * What a file was when a record was linked to it, in a few bytes (CONTRACTS.md §schema file
 * anchors): a 64-bit content hash (FNV-1a, twice: change detection, not security), its line count,
 * and a bottom-k sketch of its distinct lines, from which the share of lines changed since can be
 * estimated without keeping the old text. Pure: the caller reads the file.
 */

export interface Fingerprint {
  hash: string;
  lines: number;
  /** The SKETCH smallest distinct line hashes, 8 hex digits each, ascending. */
  sketch: string;
}

export const SKETCH = 32;

function fnv1a(text: string, basis: number): number {
  let h = basis >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

const hex8 = (n: number) => n.toString(16).padStart(8, '0');

function contentHash(text: string): string {
  return hex8(fnv1a(text, 0x811c9dc5)) + hex8(fnv1a(text, 0x01000193 ^ 0x9e3779b9));
}

function linesAndSketch(text: string): { lines: number; sketch: string } {
  const lines = text.split('\n').map((l) => l.replace(/\s+$/, ''));
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  const distinct = new Set<number>();
  for (const l of lines) if (l) distinct.add(fnv1a(l, 0x811c9dc5));
  const smallest = [...distinct].sort((a, b) => a - b).slice(0, SKETCH);
  return { lines: lines.length, sketch: smallest.map(hex8).join('') };
}

export function fingerprint(text: string): Fingerprint {
  return { hash: contentHash(text), ...linesAndSketch(text) };
}

/**
 * The same fingerprint, its line count and sketch computed on first read: a consolidation
 * comparing thousands of files pays for the sketch only where the hash differs.
 */
export function lazyFingerprint(text: string): Fingerprint {
  let rest: { lines: number; sketch: string } | undefined;
  const more = () => {
    rest ??= linesAndSketch(text);
    return rest;
  };
  return {
    hash: contentHash(text),
    get lines() {
      return more().lines;
    },
    get sketch() {
      return more().sketch;
    },
  };
}

function parseSketch(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i + 8 <= s.length; i += 8) out.push(Number.parseInt(s.slice(i, i + 8), 16));
  return out;
}

/**
 * Estimated share (0–1) of distinct lines not common to both versions: 1 − Jaccard, from the
 * two bottom-k sketches (exact when both files have at most SKETCH distinct lines).
 */
export function changedShare(a: string, b: string): number {
  const sa = new Set(parseSketch(a));
  const sb = new Set(parseSketch(b));
  if (sa.size === 0 && sb.size === 0) return 0;
  const union = [...new Set([...sa, ...sb])].sort((x, y) => x - y).slice(0, SKETCH);
  let both = 0;
  for (const h of union) if (sa.has(h) && sb.has(h)) both++;
  return 1 - both / union.length;
}
