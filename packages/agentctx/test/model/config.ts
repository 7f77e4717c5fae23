/**
 * What the model test checks, and how long it runs. Every property can be switched off alone,
 * so that the test can land green while a known defect waits for its fix:
 *
 *   AGENTCTX_MODEL_SKIP=session-start-current,keyed-unique   check everything else
 *   AGENTCTX_MODEL_ONLY=budget-prompt                         check this one only
 *
 * `SKIPPED_BY_DEFAULT` below is the same list in code (the properties a known, unfixed defect
 * breaks).
 */

export const PROPERTIES = {
  'superseded-hidden':
    'no default read path (search, export, show, ctx_search, ctx_get, ctx_related, prompt injection, dashboard) shows a superseded or deleted record (CONTRACTS.md §inv-3)',
  'session-start-current':
    'the SessionStart injection shows no superseded or deleted record, whatever wrote last (issue 14 #1)',
  'keyed-unique':
    'at most one current handover per project and one current profile record per key, on every write path (CONTRACTS.md §keyed; issue 14 #2)',
  'namespace-reads':
    'nothing of project B is visible from project A: ids, text, current heads (CONTRACTS.md §namespaces)',
  'namespace-writes':
    'no write of project A changes project B, and a supersession never crosses namespaces (CONTRACTS.md §namespaces; issue 14 #3)',
  'budget-session-start':
    'SessionStart ≤ 1,500 tokens (@anthropic-ai/tokenizer) and ≤ 8,000 characters, whatever the digest files say (CONTRACTS.md §inv-2; issue 14 #5)',
  'budget-prompt':
    'prompt injection ≤ 2,000 tokens, ≤ 8,000 characters, ≤ 3 records (CONTRACTS.md §inv-2, §budgets)',
  'model-agreement':
    'writes succeed or fail as CONTRACTS.md says, and read paths list exactly the current records the model expects',
  'hooks-safe': 'every hook exits 0 and prints nothing or one JSON object',
  'rebuild-equal':
    'CONTRACTS.md §inv-7: deleting digests, scores, drift scores, embeddings, the profile export and code caches, then `agentctx consolidate`, leaves every read output as it was',
  'rebuild-term-counts':
    'CONTRACTS.md §inv-7 for the term counts (term_df): deleting them and consolidating leaves every search and injection as it was',
  'rebuild-sessions':
    'CONTRACTS.md §inv-7 for the session files in TMPDIR: deleting them loses no injected-token count (issue 14 #4)',
  'rebuild-merge-candidates':
    'CONTRACTS.md §inv-7 for merge candidates: deleting them (and the scan watermark) and consolidating gives the same list, dismissals kept (issue 14 #8)',
} as const;

export type Property = keyof typeof PROPERTIES;

/** Properties left unchecked unless the environment names them in AGENTCTX_MODEL_ONLY (none at present). */
export const SKIPPED_BY_DEFAULT: readonly Property[] = [];

function list(v: string | undefined): string[] {
  return (v ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

function known(names: string[], from: string): Property[] {
  for (const n of names)
    if (!(n in PROPERTIES)) throw new Error(`${from}: unknown property ${JSON.stringify(n)}`);
  return names as Property[];
}

const only = known(list(process.env.AGENTCTX_MODEL_ONLY), 'AGENTCTX_MODEL_ONLY');
const skip = new Set<Property>([
  ...(only.length ? [] : SKIPPED_BY_DEFAULT),
  ...known(list(process.env.AGENTCTX_MODEL_SKIP), 'AGENTCTX_MODEL_SKIP'),
]);

export function enabled(p: Property): boolean {
  if (only.length > 0 && !only.includes(p)) return false;
  return !skip.has(p);
}

export function enabledList(): Property[] {
  return (Object.keys(PROPERTIES) as Property[]).filter(enabled);
}

function int(name: string, fallback: number): number {
  const v = Number(process.env[name]);
  return Number.isInteger(v) && v > 0 ? v : fallback;
}

/** The run's size: a bounded run in `npm test`, a long one through `npm run test:model`. */
export const RUN = {
  /** The default draws three long, varied sequences (10, 7, 8 steps); re-pick it when the commands change. */
  seed: int('AGENTCTX_MODEL_SEED', 266),
  runs: int('AGENTCTX_MODEL_RUNS', 3),
  maxCommands: int('AGENTCTX_MODEL_STEPS', 10),
  /**
   * Once a sequence fails, shrink it for at most this long; the smallest failing sequence found
   * by then is reported. (Each candidate runs to its end: nothing is left running behind.)
   */
  shrinkMs: int('AGENTCTX_MODEL_SHRINK_MS', 60_000),
  /** AGENTCTX_MODEL_NO_SHRINK=1: report the first failing sequence as found (for debugging). */
  shrink: !process.env.AGENTCTX_MODEL_NO_SHRINK,
};

/** A property violated by the system under test. */
export class Violation extends Error {
  constructor(
    readonly property: Property,
    message: string,
  ) {
    super(`[${property}] ${message}`);
    this.name = 'Violation';
  }
}

/**
 * Survey mode (AGENTCTX_MODEL_SURVEY=1): violations are counted, not thrown, so that one long
 * run lists every property that fails (with its first example) instead of stopping at the first.
 */
export const SURVEY = Boolean(process.env.AGENTCTX_MODEL_SURVEY);
export const surveyed = new Map<Property, { count: number; first: string }>();
let context: () => string = () => '';
/** What the survey records beside a violation (the steps that led to it). */
export function setSurveyContext(fn: () => string): void {
  context = fn;
}

/** Throw a violation of `p` unless `ok` (or unless `p` is switched off). */
export function expectThat(p: Property, ok: boolean, message: () => string): void {
  if (ok || !enabled(p)) return;
  if (!SURVEY) throw new Violation(p, message());
  const seen = surveyed.get(p);
  if (seen) seen.count++;
  else surveyed.set(p, { count: 1, first: `${message()}\n${context()}` });
}
