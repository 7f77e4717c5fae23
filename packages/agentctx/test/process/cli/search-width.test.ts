import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #8: `search` cut titles at about 48–64 characters on a 220-column terminal and in
 * `--json`, and the score column the README promises was in JSON only. `--json` never cuts; the
 * text output has the score and uses the terminal's width (COLUMNS when piped, as here).
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
const words = 'invoice ledger refund webhook retry backoff settlement currency rounding cents'.split(' ');
let titles: string[] = [];

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  // titles of 70–120 characters, all holding the query word
  titles = fc.sample(
    fc
      .array(fc.constantFrom(...words), { minLength: 12, maxLength: 20 })
      .map((ws) => `Settlement: ${ws.join(' ')}`.slice(0, 120).trim()),
    { numRuns: 4, seed: 31 },
  );
  for (const title of titles) {
    const r = runJson(
      ['record', '--type', 'decision', '--title', title, '--body', 'Body of the settlement rule.'],
      {
        cwd: repo,
        env,
      },
    );
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);
afterAll(() => t.cleanup());

describe('search output width', () => {
  it('--json holds every whole title', () => {
    const r = runJson<{ results: { title: string; score: number }[] }>(['search', 'settlement', '--json'], {
      cwd: repo,
      env: { ...env, COLUMNS: '40' },
    });
    expect(r.json.results.map((x) => x.title).sort()).toEqual([...titles].sort());
  });

  it('text lines fill the terminal width and no more, with a score column', () => {
    for (const columns of [80, 140, 220]) {
      const r = runAgentctx(['search', 'settlement'], {
        cwd: repo,
        env: { ...env, COLUMNS: String(columns) },
      });
      expect(r.code).toBe(0);
      const lines = r.stdout.trimEnd().split('\n');
      expect(lines.length).toBe(titles.length);
      for (const line of lines) {
        expect([...line].length).toBeLessThanOrEqual(columns);
        expect(line).toMatch(/ (?:0|1)\.\d{3} {2}Settlement/);
        const title = titles.find((x) => line.includes(x.slice(0, 30)))!;
        // the whole title when it fits, else cut exactly at the width
        if (line.includes(title)) expect(line.endsWith(title)).toBe(true);
        else expect([...line].length).toBe(columns);
      }
    }
    // piped with no width known: nothing is cut
    const { COLUMNS: _, ...rest } = env;
    const whole = runAgentctx(['search', 'settlement'], { cwd: repo, env: rest });
    for (const title of titles) expect(whole.stdout).toContain(title);
  });
});
