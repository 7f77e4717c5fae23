import { describe, expect, it } from 'vitest';
import {
  CHUNK_TOKENS,
  HEAD_TOKENS,
  MAX_MAP_CHUNKS,
  planInput,
  TAIL_TOKENS,
} from '../../../../src/core/extraction/input-policy.js';
import { estimateTokens } from '../../../../src/shared/tokens.js';

function lines(n: number): string[] {
  return Array.from({ length: n }, (_, i) =>
    i % 2 === 0
      ? `Developer: step ${i}: please refactor the parser module and keep the public API stable`
      : `Assistant: done with step ${i}; the parser now splits tokens before building the tree`,
  );
}

function cost(text: string): number {
  return text.split('\n').reduce((n, l) => n + estimateTokens(l) + 1, 0);
}

describe('input policy (CONTRACTS.md §extraction-input)', () => {
  it('sends a transcript of up to 15K tokens whole', () => {
    const l = lines(200);
    const plan = planInput(l);
    expect(plan.mode).toBe('whole');
    expect(plan.tokens).toBeLessThanOrEqual(15_000);
    if (plan.mode === 'whole') expect(plan.text).toBe(l.join('\n'));
  });

  it('sends the first 3K and the last 17K tokens of a 15–50K transcript', () => {
    const l = lines(1500);
    const plan = planInput(l);
    expect(plan.tokens).toBeGreaterThan(15_000);
    expect(plan.tokens).toBeLessThanOrEqual(50_000);
    expect(plan.mode).toBe('head_tail');
    if (plan.mode !== 'head_tail') return;
    const [head, tail] = plan.text.split(/\n\[… \d+ lines of the middle of the session omitted …\]\n/);
    expect(head!.startsWith(l[0]!)).toBe(true);
    expect(tail!.endsWith(l.at(-1)!)).toBe(true);
    expect(cost(head!)).toBeLessThanOrEqual(HEAD_TOKENS);
    expect(cost(head!)).toBeGreaterThan(HEAD_TOKENS - 100);
    expect(cost(tail!)).toBeLessThanOrEqual(TAIL_TOKENS);
    expect(cost(tail!)).toBeGreaterThan(TAIL_TOKENS - 100);
  });

  it('splits a transcript over 50K tokens into ≤10K chunks, in order, losing nothing', () => {
    const l = lines(4000);
    const plan = planInput(l);
    expect(plan.tokens).toBeGreaterThan(50_000);
    expect(plan.mode).toBe('map_reduce');
    if (plan.mode !== 'map_reduce') return;
    expect(plan.chunks.length).toBe(Math.ceil(plan.tokens / CHUNK_TOKENS));
    for (const c of plan.chunks) expect(cost(c)).toBeLessThanOrEqual(CHUNK_TOKENS);
    expect(plan.chunks.join('\n')).toBe(l.join('\n'));
    expect(plan.droppedChunks).toBe(0);
  });

  it('cuts a single oversized line to fit a chunk and keeps only the latest chunks of a huge session', () => {
    const huge = [`Developer: ${'word '.repeat(30_000)}`, ...lines(20_000)];
    const plan = planInput(huge);
    expect(plan.mode).toBe('map_reduce');
    if (plan.mode !== 'map_reduce') return;
    expect(plan.chunks.length).toBe(MAX_MAP_CHUNKS);
    expect(plan.droppedChunks).toBeGreaterThan(0);
    expect(plan.chunks.at(-1)!.endsWith(huge.at(-1)!)).toBe(true);
    for (const c of plan.chunks) expect(cost(c)).toBeLessThanOrEqual(CHUNK_TOKENS);
  });
});
