import type { LlmUsage } from './client.js';

/**
 * Claude Haiku 4.5 list prices, US dollars per million tokens (Anthropic pricing page, 2025):
 * input $1, output $5; writing the prompt cache costs 1.25× input (5-minute cache), reading it
 * 0.1× input.
 */
const HAIKU_45_INPUT_USD_PER_MTOK = 1;
const HAIKU_45_OUTPUT_USD_PER_MTOK = 5;
export const CACHE_WRITE_MULTIPLIER = 1.25;
export const CACHE_READ_MULTIPLIER = 0.1;

interface Prices {
  inputPerMTok: number;
  outputPerMTok: number;
}

const HAIKU_45_PRICES: Prices = {
  inputPerMTok: HAIKU_45_INPUT_USD_PER_MTOK,
  outputPerMTok: HAIKU_45_OUTPUT_USD_PER_MTOK,
};

/** Cost of one call. `input_tokens` excludes cached tokens, as the API reports it. */
export function costOf(usage: LlmUsage, prices: Prices = HAIKU_45_PRICES): number {
  const perTok = prices.inputPerMTok / 1e6;
  return (
    usage.input_tokens * perTok +
    usage.cache_creation_input_tokens * perTok * CACHE_WRITE_MULTIPLIER +
    usage.cache_read_input_tokens * perTok * CACHE_READ_MULTIPLIER +
    usage.output_tokens * (prices.outputPerMTok / 1e6)
  );
}
