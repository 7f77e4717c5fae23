import { expect } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from './cli.js';
import { FIXTURE_MODELS } from './models.js';
import { fakeRepo } from './tmp.js';

/** A query that shares no word with the record it should find (`answer` below): only vectors find it. */
export const PARAPHRASE_QUERY = 'which football game did the club lose';

/**
 * A project under `dir` whose records are all embedded with the glove fixture: a decision, the
 * record `answer` that PARAPHRASE_QUERY paraphrases, and any `more` records; then a finished
 * consolidation that embedded every one. `queryVectors` turns on `search.queryVectors`.
 */
export function embeddedStore(
  dir: string,
  opts: { more?: [type: string, title: string, body: string][]; queryVectors?: boolean } = {},
): { repo: string; env: NodeJS.ProcessEnv; answer: string } {
  const repo = fakeRepo(dir, 'repo', null);
  const env = isolatedEnv(dir, {
    AGENTCTX_NO_CLAUDE_CLI: '1',
    AGENTCTX_EMBED_MODEL: 'glove-sif-384-q8',
    AGENTCTX_MODEL_PATH: FIXTURE_MODELS,
  });
  const add = (type: string, title: string, body: string) =>
    runJson<{ id: string }>(['record', '--type', type, '--title', title, '--body', body], {
      cwd: repo,
      env,
    }).json.id;
  add('decision', 'Persistence', 'Everything is kept in an SQLite file.');
  const answer = add(
    'discovery',
    'Season result',
    'The soccer team was beaten in the final match of the season.',
  );
  for (const [type, title, body] of opts.more ?? []) add(type, title, body);
  const cons = runAgentctx(['consolidate', '--json'], { cwd: repo, env, timeoutMs: 60_000 });
  expect(cons.code).toBe(0);
  expect(JSON.parse(cons.stdout).embeddings).toMatchObject({
    status: 'on',
    embedded: 2 + (opts.more?.length ?? 0),
    pending: 0,
  });
  if (opts.queryVectors) {
    const set = runAgentctx(['config', 'set', 'search.queryVectors', 'true'], { cwd: repo, env });
    expect(set.code, set.stderr).toBe(0);
  }
  return { repo, env, answer };
}

/** The record ids of a ctx_search or ctx_related result. */
export const resultIds = (json: Record<string, unknown>) =>
  (json.results as { id: string }[]).map((r) => r.id);
