import { promptInjection } from '../core/injection/prompt-injection.js';
import type { Db } from '../database/open.js';
import type { BenchQuery } from './dataset.js';

/**
 * What the prompt hook injects, scored: each query is the first prompt of a fresh session
 * (nothing excluded yet), run through `promptInjection`, the hook's own code path.
 */
export interface HookMetrics {
  /** Mean over queries of |relevant ∩ injected| / |relevant| (at most three are injected). */
  r3: number;
  /** Relevant injected records / all injected records, over the whole run. */
  precision: number;
  /** Share of prompts that inject anything. */
  injectRate: number;
  /** Mean injected tokens per prompt (agentctx's conservative estimate), 0 for silent prompts. */
  tokensPerPrompt: number;
}

export interface HookOutcome {
  recall: number;
  injected: number;
  relevantInjected: number;
  tokens: number;
}

export function hookOutcome(db: Db, q: BenchQuery, now: Date): HookOutcome {
  const inj = promptInjection(db, { projectId: q.project, prompt: q.query, now });
  const ids = inj?.ids ?? [];
  const relevant = new Set(q.relevant);
  const relevantInjected = ids.filter((id) => relevant.has(id)).length;
  return {
    recall: relevant.size ? relevantInjected / relevant.size : 0,
    injected: ids.length,
    relevantInjected,
    tokens: inj?.tokens ?? 0,
  };
}

const round = (v: number) => Math.round(v * 1000) / 1000;

export function meanHookMetrics(list: readonly HookOutcome[]): HookMetrics {
  const n = list.length;
  const sum = (f: (o: HookOutcome) => number) => list.reduce((s, o) => s + f(o), 0);
  const injected = sum((o) => o.injected);
  return {
    r3: n ? round(sum((o) => o.recall) / n) : 0,
    precision: injected ? round(sum((o) => o.relevantInjected) / injected) : 0,
    injectRate: n ? round(list.filter((o) => o.injected > 0).length / n) : 0,
    tokensPerPrompt: n ? Math.round(sum((o) => o.tokens) / n) : 0,
  };
}
