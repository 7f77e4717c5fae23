import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';
import { hostileQueries } from '../../unit/core/retrieval/hostile-queries.js';

let dir: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = tempDir();
  repo = fakeRepo(dir.path, 'repo', 'git@github.com:acme/fuzz.git');
  env = isolatedEnv(dir.path);
  for (const [title, body] of [
    ['Postgres is the database', 'Orders are stored in Postgres; cache in Redis.'],
    ['Quote handling', 'Titles may contain "quotes", NEAR, AND, OR and * characters.'],
  ]) {
    const r = runJson(['record', '--type', 'decision', '--title', title!, '--body', body!], {
      cwd: repo,
      env,
    });
    expect(r.code).toBe(0);
  }
});
afterAll(() => dir.cleanup());

describe('agentctx search through the built CLI with hostile queries', () => {
  // argv cannot carry NUL; everything else (controls, lone surrogates, RTL, 5,000-char pastes) goes as is.
  const sample = hostileQueries(1000)
    .filter((_, i) => i % 10 === 0)
    .map((q) => q.replace(/\u0000/g, '\u0001'))
    .filter((q) => q.trim().length > 0);

  it('exits 0 with one valid JSON object for every sampled query', () => {
    expect(sample.length).toBeGreaterThanOrEqual(95);
    let withResults = 0;
    for (const query of sample) {
      const res = runAgentctx(['search', '--json', '--limit', '15', '--', query], { cwd: repo, env });
      const label = JSON.stringify(query).slice(0, 120);
      expect(res.code, `${label}\n${res.stderr}`).toBe(0);
      const json = JSON.parse(res.stdout) as { results: { id: string; score: number }[]; degraded?: string };
      expect(Array.isArray(json.results), label).toBe(true);
      expect(json.degraded, label).toBeUndefined();
      if (json.results.length > 0) withResults++;
    }
    expect(withResults).toBeGreaterThan(5);
  }, 240_000);

  it('finds a record by words that look like FTS5 operators', () => {
    const res = runAgentctx(['search', '--json', '--', 'title:"quotes" NEAR( AND*'], { cwd: repo, env });
    expect(res.code, res.stderr).toBe(0);
    const json = JSON.parse(res.stdout) as { results: { title: string }[] };
    expect(json.results[0]?.title).toBe('Quote handling');
  });
});
