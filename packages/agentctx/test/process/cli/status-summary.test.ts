import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #12: `status` was about 25 lines of jargon (a "ladder rung" of a spec section users do not have), and `config`
 * showed `embeddings.enabled: true` while `doctor` said embeddings were off. Status leads with
 * what a person needs; the rest is behind --verbose; config says what its settings come to, in
 * doctor's words.
 */

let t: ReturnType<typeof tempDir>;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path, { AGENTCTX_NO_CLAUDE_CLI: '1' });
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
  for (const [type, title] of [
    ['decision', 'Orders in Postgres'],
    ['convention', 'Named exports'],
  ])
    expect(
      runAgentctx(['record', '--type', type!, '--title', title!, '--body', `${title}.`], { cwd: repo, env })
        .code,
    ).toBe(0);
});
afterAll(() => t.cleanup());

describe('status, in words', () => {
  it('leads with working or not, what it knows, what it cost, what needs you; no jargon', () => {
    const before = runAgentctx(['status'], { cwd: repo, env }).stdout.trimEnd().split('\n');
    expect(before[0]).toMatch(/^shop: not working: Claude Code does not run it here: run `agentctx init`/);
    expect(before[1]).toBe(
      'knows     2 records here (1 decision, 1 convention); 0 records in your global profile',
    );
    expect(before[2]).toMatch(
      /^cost {6}\$0\.0000 today of the \$1 daily cap; \$0\.0000 over 0 sessions; no extraction yet$/,
    );
    expect(before[3]).toBe('needs you nothing');
    expect(before.at(-1)).toBe('more      agentctx status --verbose');
    expect(before.length).toBeLessThanOrEqual(8);
    expect(runAgentctx(['init'], { cwd: repo, env }).code).toBe(0);
    const after = runAgentctx(['status'], { cwd: repo, env }).stdout;
    expect(after).toMatch(/^shop: working \(agentctx init \(hooks in /);
    const verbose = runAgentctx(['status', '--verbose'], { cwd: repo, env }).stdout;
    expect(verbose.startsWith(after.replace(/more {6}agentctx status --verbose\n$/, ''))).toBe(true);
    expect(verbose).toMatch(/^store {5}/m);
    expect(verbose).toMatch(/^fallbacks /m);
    expect(`${after}${verbose}`).not.toMatch(/SPEC|rung/);
  });

  it('config and doctor say the same about embeddings and extraction, setting by setting', () => {
    for (const flag of ['--embeddings', '--no-embeddings', '--model-tier', '--embeddings']) {
      const args = flag === '--model-tier' ? ['config', flag, 'quality'] : ['config', flag];
      const config = runJson<{ effective: { embeddings: string; extraction_from_this_shell: string } }>(
        args,
        {
          cwd: repo,
          env,
        },
      );
      expect(config.code, config.stderr).toBe(0);
      const doctor = runJson<{ checks: { id: string; summary: string }[] }>(['doctor'], {
        cwd: repo,
        env,
      }).json;
      const said = (id: string) => doctor.checks.find((c) => c.id === id)!.summary;
      expect(config.json.effective.embeddings).toBe(said('embeddings'));
      expect(said('extraction')).toContain(
        config.json.effective.extraction_from_this_shell.split(': ').slice(1).join(': '),
      );
    }
    const text = runAgentctx(['config'], { cwd: repo, env }).stdout;
    expect(text).toMatch(/"enabled": true/);
    expect(text).toMatch(/^ {2}embeddings {2}off: /m);
  });
});
