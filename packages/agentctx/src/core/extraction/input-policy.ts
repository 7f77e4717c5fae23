import { estimateTokens } from '../../shared/tokens.js';

/**
 * The input policy (CONTRACTS.md §extraction-input), by the size of the rendered transcript:
 * ≤ 15K tokens → whole; 15–50K → first 3K + last 17K; > 50K → map over 10K chunks, then one
 * synthesis call.
 */
const WHOLE_MAX_TOKENS = 15_000;
const HEAD_TAIL_MAX_TOKENS = 50_000;
export const HEAD_TOKENS = 3_000;
export const TAIL_TOKENS = 17_000;
export const CHUNK_TOKENS = 10_000;
/** Bound on map calls (cost and lifetime); beyond it the most recent chunks are kept. */
export const MAX_MAP_CHUNKS = 16;

export type InputPlan =
  | { mode: 'whole'; tokens: number; text: string }
  | { mode: 'head_tail'; tokens: number; text: string }
  | { mode: 'map_reduce'; tokens: number; chunks: string[]; droppedChunks: number };

function lineCost(line: string): number {
  return estimateTokens(line) + 1;
}

/** A single line longer than the budget is cut by characters until it fits. */
function fitLine(line: string, budget: number): string {
  let s = line;
  while (s.length > 0 && lineCost(s) > budget) s = s.slice(0, Math.floor(s.length * 0.8));
  return s;
}

function takeHead(lines: readonly string[], budget: number): { taken: string[]; used: number } {
  const taken: string[] = [];
  let used = 0;
  for (const line of lines) {
    const c = lineCost(line);
    if (used + c > budget) break;
    taken.push(line);
    used += c;
  }
  return { taken, used };
}

function takeTail(lines: readonly string[], budget: number): string[] {
  const taken: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const c = lineCost(lines[i]!);
    if (used + c > budget) break;
    taken.unshift(lines[i]!);
    used += c;
  }
  return taken;
}

function chunkLines(lines: readonly string[], budget: number): string[] {
  const chunks: string[] = [];
  let cur: string[] = [];
  let used = 0;
  for (const raw of lines) {
    const line = lineCost(raw) > budget ? fitLine(raw, budget) : raw;
    const c = lineCost(line);
    if (used + c > budget && cur.length > 0) {
      chunks.push(cur.join('\n'));
      cur = [];
      used = 0;
    }
    cur.push(line);
    used += c;
  }
  if (cur.length > 0) chunks.push(cur.join('\n'));
  return chunks;
}

export function planInput(lines: readonly string[]): InputPlan {
  const tokens = lines.reduce((n, l) => n + lineCost(l), 0);
  if (tokens <= WHOLE_MAX_TOKENS) return { mode: 'whole', tokens, text: lines.join('\n') };
  if (tokens <= HEAD_TAIL_MAX_TOKENS) {
    const head = takeHead(lines, HEAD_TOKENS).taken;
    const tail = takeTail(lines.slice(head.length), TAIL_TOKENS);
    const omitted = lines.length - head.length - tail.length;
    const text = [...head, `[… ${omitted} lines of the middle of the session omitted …]`, ...tail].join('\n');
    return { mode: 'head_tail', tokens, text };
  }
  const all = chunkLines(lines, CHUNK_TOKENS);
  const droppedChunks = Math.max(0, all.length - MAX_MAP_CHUNKS);
  return { mode: 'map_reduce', tokens, chunks: all.slice(droppedChunks), droppedChunks };
}
