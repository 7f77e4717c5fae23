import { findOnPath } from '../files/find-on-path.js';
import { createAnthropicClient } from './anthropic.js';
import { createClaudeCliClient } from './claude-cli.js';
import { claudeSignIn } from './claude-detect.js';
import type { LlmClient } from './client.js';
import { createCodexCliClient } from './codex-cli.js';
import { codexModel, codexSignIn } from './codex-detect.js';

interface LlmSettings {
  enabled: boolean;
  backend: 'auto' | 'api' | 'claude-cli' | 'codex-cli' | 'off';
  model: string;
}

type BackendId = 'api' | 'claude-cli' | 'codex-cli';

/** Which backend extraction would use now, and why (for `status`, `init` and the extract log). */
export interface BackendDecision {
  configured: LlmSettings['backend'];
  active: BackendId | null;
  reason: string;
  /** The claude executable, when the claude-cli backend is active. */
  claudeBin?: string;
  /** The codex executable, when the codex-cli backend is active. */
  codexBin?: string;
}

type Env = Record<string, string | undefined>;

/**
 * The decision rules (config `llm.backend`):
 * - `off`, or `llm.enabled` false → no model, rule-based capture;
 * - `api` → the Anthropic API when ANTHROPIC_API_KEY is set, else none;
 * - `claude-cli` → the `claude` CLI when it is on PATH (sign-in is the user's word), else none;
 * - `codex-cli` → `codex exec` when codex is on PATH, else none;
 * - `auto` → the API when a key is set; else the claude CLI when it is on PATH and signed in
 *   (see claude-detect.ts: offline checks only); else `codex exec` when codex is on PATH and
 *   can reach a model (codex-detect.ts); else none.
 */
export function decideBackend(settings: LlmSettings, env: Env): BackendDecision {
  const configured = settings.backend ?? 'auto';
  const none = (reason: string): BackendDecision => ({ configured, active: null, reason });
  if (!settings.enabled || configured === 'off') return none('llm disabled in config; rule-based capture');
  const key = env.ANTHROPIC_API_KEY?.trim();
  if (configured === 'api') {
    return key
      ? { configured, active: 'api', reason: 'llm.backend is api and ANTHROPIC_API_KEY is set' }
      : none('llm.backend is api but ANTHROPIC_API_KEY is not set; rule-based capture');
  }
  if (configured === 'codex-cli') {
    const codex = findOnPath('codex', env);
    if (!codex) return none('llm.backend is codex-cli but codex is not on PATH; rule-based capture');
    return {
      configured,
      active: 'codex-cli',
      reason: `llm.backend is codex-cli (${codex}; ${codexSignIn(env) ?? 'no sign-in found, runs may fail'})`,
      codexBin: codex,
    };
  }
  const bin = findOnPath('claude', env);
  if (configured === 'claude-cli') {
    if (!bin) return none('llm.backend is claude-cli but claude is not on PATH; rule-based capture');
    const signIn = claudeSignIn(env) ?? (key ? 'ANTHROPIC_API_KEY is set' : null);
    return {
      configured,
      active: 'claude-cli',
      reason: `llm.backend is claude-cli (${bin}; ${signIn ?? 'no sign-in found, runs may fail'})`,
      claudeBin: bin,
    };
  }
  if (key) return { configured, active: 'api', reason: 'auto: ANTHROPIC_API_KEY is set' };
  const signIn = bin ? claudeSignIn(env) : null;
  if (!bin || !signIn) {
    const claude = bin ? `claude (${bin}) is not signed in` : 'claude is not on PATH';
    const codex = findOnPath('codex', env);
    const codexAuth = codex ? codexSignIn(env) : null;
    if (codex && codexAuth)
      return {
        configured,
        active: 'codex-cli',
        reason: `auto: no ANTHROPIC_API_KEY, ${claude}; codex on PATH (${codex}), ${codexAuth}`,
        codexBin: codex,
      };
    return none(`auto: no ANTHROPIC_API_KEY and ${claude}; rule-based capture`);
  }
  return {
    configured,
    active: 'claude-cli',
    reason: `auto: no ANTHROPIC_API_KEY; claude on PATH (${bin}), ${signIn}`,
    claudeBin: bin,
  };
}

type LlmChoice =
  | { client: LlmClient; reason?: undefined; decision: BackendDecision }
  | { client: null; reason: string; decision?: BackendDecision };

/** The reason an extraction summary gives (stable wording); `decision.reason` has the detail. */
function shortReason(settings: LlmSettings, d: BackendDecision): string {
  if (!settings.enabled || d.configured === 'off') return 'llm disabled in config';
  if (d.configured === 'claude-cli') return 'claude is not on PATH';
  if (d.configured === 'codex-cli') return 'codex is not on PATH';
  return 'no ANTHROPIC_API_KEY';
}

function envNumber(v: string | undefined, ok: (n: number) => boolean): number | undefined {
  if (!v) return undefined;
  const n = Number(v);
  return Number.isFinite(n) && ok(n) ? n : undefined;
}

/** The model name the claude CLI gets: the alias `haiku` for the default Haiku model. */
export function cliModel(settings: LlmSettings, env: Env): string {
  const override = env.AGENTCTX_CLAUDE_CLI_MODEL?.trim();
  if (override) return override;
  return /^claude-haiku-4-5/.test(settings.model) ? 'haiku' : settings.model;
}

/**
 * Pick the extraction backend from config and the environment given (the caller's env, not
 * process.env). No usable backend → null with the reason, and extraction falls back to rules.
 */
export function selectLlm(
  settings: LlmSettings,
  env: Env,
  opts: { log?: (message: string) => void; scratchRoot?: string } = {},
): LlmChoice {
  const decision = decideBackend(settings, env);
  if (!decision.active) return { client: null, reason: shortReason(settings, decision), decision };
  const timeoutMs = envNumber(env.AGENTCTX_LLM_TIMEOUT_MS, (n) => n > 0);
  const retries = envNumber(env.AGENTCTX_LLM_MAX_RETRIES, (n) => Number.isInteger(n) && n >= 0);
  if (decision.active === 'codex-cli') {
    return {
      decision,
      client: createCodexCliClient({
        bin: decision.codexBin as string,
        model: codexModel(env),
        env,
        timeoutMs: timeoutMs ?? 120_000,
        maxRetries: retries ?? 1,
        ...(opts.scratchRoot ? { scratchRoot: opts.scratchRoot } : {}),
        ...(opts.log ? { log: opts.log } : {}),
      }),
    };
  }
  if (decision.active === 'claude-cli') {
    return {
      decision,
      client: createClaudeCliClient({
        bin: decision.claudeBin as string,
        model: cliModel(settings, env),
        env,
        timeoutMs: timeoutMs ?? 120_000,
        maxRetries: retries ?? 1,
        ...(opts.scratchRoot ? { scratchRoot: opts.scratchRoot } : {}),
        ...(opts.log ? { log: opts.log } : {}),
      }),
    };
  }
  return {
    decision,
    client: createAnthropicClient({
      apiKey: env.ANTHROPIC_API_KEY?.trim() as string,
      baseURL: env.ANTHROPIC_BASE_URL?.trim() || undefined,
      model: settings.model,
      timeoutMs: timeoutMs ?? 60_000,
      maxRetries: retries ?? 2,
    }),
  };
}
