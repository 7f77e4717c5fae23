import { createAnthropicClient } from './anthropic.js';
import type { LlmClient } from './client.js';

export interface LlmSettings {
  enabled: boolean;
  backend: 'auto' | 'api' | 'claude-cli' | 'off';
  model: string;
}

export type LlmChoice = { client: LlmClient; reason?: undefined } | { client: null; reason: string };

/**
 * Pick the extraction backend from config and the environment given (the caller's env, not
 * process.env). No usable backend → null with the reason, and extraction falls back to rules.
 */
export function selectLlm(settings: LlmSettings, env: Record<string, string | undefined>): LlmChoice {
  if (!settings.enabled || settings.backend === 'off')
    return { client: null, reason: 'llm disabled in config' };
  if (settings.backend === 'claude-cli')
    return { client: null, reason: 'the claude-cli backend is not available yet' };
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return { client: null, reason: 'no ANTHROPIC_API_KEY' };
  const timeoutMs = env.AGENTCTX_LLM_TIMEOUT_MS ? Number(env.AGENTCTX_LLM_TIMEOUT_MS) : Number.NaN;
  const retries = env.AGENTCTX_LLM_MAX_RETRIES ? Number(env.AGENTCTX_LLM_MAX_RETRIES) : Number.NaN;
  return {
    client: createAnthropicClient({
      apiKey,
      baseURL: env.ANTHROPIC_BASE_URL?.trim() || undefined,
      model: settings.model,
      timeoutMs: Number.isFinite(timeoutMs) && timeoutMs > 0 ? timeoutMs : 60_000,
      maxRetries: Number.isInteger(retries) && retries >= 0 ? retries : 2,
    }),
  };
}
