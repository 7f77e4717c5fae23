import { formatAge } from '../../shared/age.js';
import { type StaleFile, staleLabel } from '../../shared/stale-label.js';
import { estimateTokens } from '../../shared/tokens.js';
import type { ContextRecord } from '../../shared/types.js';
import type { SearchHit } from '../retrieval/search-types.js';

/**
 * The UserPromptSubmit block (CONTRACTS.md §hook-prompt, §budgets): at most three records, at most
 * 2,000 tokens by the conservative estimator and 8,000 characters, lowest-ranked dropped first.
 * Inferred records are worded as hypotheses. Weak matches inject nothing: silence beats noise.
 */

const PROMPT_TOKEN_BUDGET = 2000;
const PROMPT_CHAR_BUDGET = 8000;
const PROMPT_MAX_RECORDS = 3;
/** Below this many tokens left, a truncated body is not worth showing. */
const MIN_BODY_TOKENS = 24;

export interface Injection {
  text: string;
  ids: string[];
  tokens: number;
}

/**
 * The weak-match filter's knobs for queries of three or more terms, chosen on the tuning
 * splits of the retrieval benchmark (LoCoMo conversations 1–3, half of dev-memory) and
 * reported on the validation splits (BENCHMARKS.md). `minScore` is relative to the best hit
 * of the query: a record far below the best is rarely relevant (the precision lever).
 * `shortCoverage` lets one rare word carry a hit: a record holding a quarter of a short
 * query's information is injected even when it shares a single word with it.
 */
const WEAK_MATCH = { minScore: 0.55, shortCoverage: 0.25, longCoverage: 0.2 } as const;

/**
 * Whether a hit is strong enough to inject. `termCount` is the number of query terms the
 * engine searched for. Short queries need most of their words; long ones a fair share of
 * their information, and never a single common word.
 */
export function isStrongHit(hit: SearchHit, termCount: number): boolean {
  if (termCount === 0 || hit.matched === 0) return false;
  if (termCount === 1) return hit.coverage >= 0.99;
  if (termCount === 2) return hit.coverage >= 0.5 && hit.matched >= 1 && hit.score >= 0.5;
  const minCoverage = termCount <= 5 ? WEAK_MATCH.shortCoverage : WEAK_MATCH.longCoverage;
  if (hit.score < WEAK_MATCH.minScore) return false;
  // `coverage` weighs words by rarity; in a small or uniform store the words every record
  // shares weigh almost nothing, so a record holding most of the query's words counts too.
  return hit.coverage >= minCoverage || hit.matched / termCount >= 0.5;
}

/** Pick the hits to inject: strong ones, best first, at most PROMPT_MAX_RECORDS. */
export function selectHits(hits: readonly SearchHit[], termCount: number): SearchHit[] {
  return hits.filter((h) => isStrongHit(h, termCount)).slice(0, PROMPT_MAX_RECORDS);
}

const HEADER =
  'agentctx: project context from earlier sessions that may bear on this prompt. Items marked "unconfirmed" are hypotheses to check, not established facts. Full records: ctx_get with the id.';

function label(r: ContextRecord, now: Date): string {
  const age = formatAge(r.valid_from, now);
  const trust =
    r.confidence === 'inferred'
      ? 'unconfirmed (inferred): treat as a hypothesis and verify'
      : r.confidence === 'reinforced'
        ? 'seen repeatedly'
        : 'stated by the developer';
  const scope = r.scope === 'global' ? ', global preference' : '';
  return `[${r.type}${scope}, ${trust}, ${age}, id ${r.id}]`;
}

function titleLine(r: ContextRecord, stale: readonly StaleFile[] | undefined): string {
  const title = r.confidence === 'inferred' ? `Possibly: ${r.title}` : r.title;
  // never shown as if current: the files it was written about changed since
  return stale?.length ? `${staleLabel(stale)}; check the code before relying on it.\n${title}` : title;
}

/** The longest prefix of `body` (cut at a line or word end where possible) that fits. */
function fitBody(body: string, tokens: number, chars: number): string {
  if (estimateTokens(body) <= tokens && body.length <= chars) return body;
  const cps = [...body];
  let lo = 0;
  let hi = Math.min(cps.length, chars);
  // binary search on the code-point length (the estimate grows with length)
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    const cand = `${cps.slice(0, mid).join('')} …`;
    if (estimateTokens(cand) <= tokens && cand.length <= chars) lo = mid;
    else hi = mid - 1;
  }
  if (lo === 0) return '';
  let cut = cps.slice(0, lo).join('');
  const soft = Math.max(cut.lastIndexOf('\n'), cut.lastIndexOf(' '));
  if (soft > cut.length * 0.6) cut = cut.slice(0, soft);
  return `${cut.trimEnd()} …`;
}

/**
 * Parts are joined by a blank line. A line break never joins two of the estimator's segments,
 * so for non-empty parts the estimate of `a + "\n\n" + b` is at most estimate(a) +
 * estimate(b) + 2: the block is measured part by part instead of re-reading the growing text
 * (the hook runs this cold, where every pass over the text shows in its latency).
 */
const JOIN_TOKENS = 2;
const JOIN = '\n\n';

/** Build the block; null when nothing fits or nothing was given. */
export function formatInjection(
  hits: readonly SearchHit[],
  now: Date,
  budget = { tokens: PROMPT_TOKEN_BUDGET, chars: PROMPT_CHAR_BUDGET },
  stale: ReadonlyMap<string, readonly StaleFile[]> = new Map(),
  header = HEADER,
): Injection | null {
  const parts: string[] = [header];
  const ids: string[] = [];
  let tokens = estimateTokens(header);
  let chars = header.length;
  for (const hit of hits.slice(0, PROMPT_MAX_RECORDS)) {
    const r = hit.record;
    const head = `${label(r, now)}\n${titleLine(r, stale.get(r.id))}`;
    const full = `${head}\n${r.body}`;
    const fullTokens = tokens + JOIN_TOKENS + estimateTokens(full);
    const fullChars = chars + JOIN.length + full.length;
    if (fullTokens <= budget.tokens && fullChars <= budget.chars) {
      parts.push(full);
      ids.push(r.id);
      tokens = fullTokens;
      chars = fullChars;
      continue;
    }
    // shorten the body to what is left; stop when even a short body does not fit
    const headTokens = tokens + JOIN_TOKENS + estimateTokens(`${head}\n`);
    const leftTokens = budget.tokens - headTokens;
    const leftChars = budget.chars - (chars + JOIN.length + head.length + 1);
    if (leftTokens < MIN_BODY_TOKENS || leftChars < MIN_BODY_TOKENS * 2) break;
    const body = fitBody(r.body, leftTokens, leftChars);
    if (!body) break;
    const cand = `${head}\n${body}`;
    const candTokens = tokens + JOIN_TOKENS + estimateTokens(cand);
    const candChars = chars + JOIN.length + cand.length;
    if (candTokens > budget.tokens || candChars > budget.chars) break;
    parts.push(cand);
    ids.push(r.id);
    tokens = candTokens;
    break; // the budget is spent
  }
  if (ids.length === 0) return null;
  return { text: parts.join(JOIN), ids, tokens };
}
