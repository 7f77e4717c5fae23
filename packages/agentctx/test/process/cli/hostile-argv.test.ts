import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
});
afterAll(() => t.cleanup());

describe('the built CLI with prototype names and blank input', () => {
  it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty'])(
    '`agentctx %s` is an unknown command: exit 2, one clear line',
    (name) => {
      const res = runAgentctx([name], { cwd: repo, env });
      expect(res.code).toBe(2);
      expect(res.stdout).toBe('');
      expect(res.stderr).toBe(`agentctx: unknown command "${name}"; run agentctx --help for the list\n`);
    },
  );

  it('refuses `--__proto__ x` and `--constructor x` as unknown options, and records nothing', () => {
    for (const opt of ['__proto__', 'constructor']) {
      const res = runAgentctx(
        ['record', '--type', 'decision', '--title', 't', '--body', 'b', `--${opt}`, 'x'],
        {
          cwd: repo,
          env,
        },
      );
      expect(res.code).toBe(2);
      expect(res.stderr).toBe(`agentctx: unknown option --${opt}\n`);
    }
    const status = runJson<{ counts: Record<string, number> }>(['status'], { cwd: repo, env });
    expect(status.json.counts.decision).toBe(0);
  });

  it('refuses `supersede ID --body "   "` as record refuses a blank body', () => {
    const rec = runJson<{ id: string }>(
      ['record', '--type', 'decision', '--title', 'Queue', '--body', 'Use SQS.'],
      {
        cwd: repo,
        env,
      },
    );
    expect(rec.code).toBe(0);
    const blankRecord = runJson(['record', '--type', 'decision', '--title', 'Queue', '--body', '   '], {
      cwd: repo,
      env,
    });
    const blank = runJson(['supersede', rec.json.id, '--body', '   ', '--rationale', 'moved'], {
      cwd: repo,
      env,
    });
    expect(blank.code).toBe(2);
    expect(blank.json).toEqual(blankRecord.json);
    expect(blank.json).toMatchObject({ code: 'invalid_input', field: 'body' });
    const shown = runJson<{ id: string; superseded_at: string | null }>(['show', rec.json.id], {
      cwd: repo,
      env,
    });
    expect(shown.json.superseded_at ?? null).toBeNull();
  });
});
