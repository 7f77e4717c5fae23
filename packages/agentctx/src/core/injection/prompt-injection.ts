import type { Db } from '../../database/open.js';
import { staleFilesOf } from '../../database/staleness-repo.js';
import type { WriterFilter } from '../../database/writer-filter.js';
import type { ContextRecord } from '../../shared/types.js';
import { extractTerms } from '../../text/terms.js';
import { search } from '../retrieval/search.js';
import { formatInjection, type Injection, selectHits } from './injection.js';

/**
 * What the UserPromptSubmit hook injects for one prompt: the engine with the hook's own
 * settings, minus what the session was already shown and what it observed itself, then the
 * weak-match filter and the budgets. The hook and `bench:retrieval --path hook` both call this,
 * so the benchmark measures exactly what users get.
 */

/** The engine settings of the prompt hook. */
const PROMPT_SEARCH = {
  /** Candidates asked of the engine; the injection keeps at most three strong ones. */
  limit: 12,
  /** BM25 candidates re-ranked; fewer than the engine's default, as only three are ever shown. */
  candidates: 30,
  /** Postings the prompt's search may walk before it narrows to records holding two rare words. */
  postingsBudget: 5000,
  indexFirst: true,
} as const;

interface PromptInjectionInput {
  projectId: string;
  prompt: string;
  /** Record ids this session has already been shown. */
  excludeIds?: readonly string[];
  /** The session asking: its own hook observations are already in its context. */
  sessionId?: string;
  now: Date;
  /** Records the asker already holds some other way (a subagent's task quoting them). */
  skip?: (record: ContextRecord) => boolean;
  /** The block's first line; the prompt hook's own by default. */
  header?: string;
  /** Whose records may be shown (values of `records.agent`); every writer's when absent. */
  writers?: WriterFilter;
}

/** Whether a prompt is worth a search at all: not empty, not a bare slash command, has words. */
export function searchablePrompt(prompt: string): boolean {
  const p = prompt.trim();
  if (!p || /^\/[\w:.-]+$/.test(p)) return false;
  return extractTerms(p, 1).length > 0;
}

export function promptInjection(db: Db, input: PromptInjectionInput): Injection | null {
  const prompt = input.prompt.trim();
  if (!searchablePrompt(prompt)) return null;
  const res = search(db, {
    projectId: input.projectId,
    query: prompt,
    ...PROMPT_SEARCH,
    excludeIds: input.excludeIds,
    ...(input.writers ? { writers: input.writers } : {}),
    now: input.now,
  });
  const sessionId = input.sessionId;
  const hits = res.hits.filter(
    (h) =>
      !(sessionId && h.record.session_id === sessionId && h.record.source === 'hook_observation') &&
      !input.skip?.(h.record),
  );
  const chosen = selectHits(hits, res.terms.length);
  const stale = staleFilesOf(
    db,
    chosen.map((h) => h.record.id),
  );
  return formatInjection(chosen, input.now, undefined, stale, input.header);
}
