import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repoA: string;
let repoB: string;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repoA = fakeRepo(t.path, 'alpha', 'git@github.com:acme/alpha.git');
  repoB = fakeRepo(t.path, 'beta', 'https://github.com/acme/beta.git');
});
afterAll(() => t.cleanup());

describe('agentctx CLI (built binary)', () => {
  it('prints its version', () => {
    const res = runAgentctx(['--version'], { cwd: repoA, env });
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('records, searches, shows, supersedes and exports', () => {
    const rec = runJson<{ id: string }>(
      [
        'record',
        '--type',
        'decision',
        '--title',
        'HTTP client',
        '--body',
        'Use undici for outbound HTTP calls.',
      ],
      { cwd: repoA, env },
    );
    expect(rec.code).toBe(0);
    expect(rec.json.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);

    const found = runJson<{
      results: { id: string; title: string; type: string; age: string; score: number }[];
    }>(['search', 'undici http'], { cwd: repoA, env });
    expect(found.json.results.map((r) => r.id)).toEqual([rec.json.id]);
    expect(Object.keys(found.json.results[0]!).sort()).toEqual([
      'age',
      'agent',
      'confidence',
      'id',
      'score',
      'title',
      'type',
    ]);

    const sup = runJson<{ old_id: string; new_id: string }>(
      [
        'supersede',
        rec.json.id,
        '--body',
        'Use the built-in fetch for outbound HTTP calls.',
        '--rationale',
        'Node 20 has it',
      ],
      { cwd: repoA, env },
    );
    expect(sup.code).toBe(0);
    expect(sup.json.old_id).toBe(rec.json.id);

    const again = runJson<{ results: { id: string }[] }>(['search', 'undici http outbound'], {
      cwd: repoA,
      env,
    });
    expect(again.json.results.map((r) => r.id)).toEqual([sup.json.new_id]);
    const hist = runJson<{ results: { id: string }[] }>(['search', 'undici', '--history'], {
      cwd: repoA,
      env,
    });
    expect(hist.json.results.map((r) => r.id)).toContain(rec.json.id);

    const shown = runJson<{ record: Record<string, unknown>; chain: { id: string }[] }>(
      ['show', rec.json.id],
      {
        cwd: repoA,
        env,
      },
    );
    expect(shown.json.record.superseded_by).toBe(sup.json.new_id);
    // every column of records (migration 14 added content_key, 15 the writing agent)
    expect(Object.keys(shown.json.record)).toHaveLength(22);
    expect(shown.json.record.agent).toBe('claude-code');
    expect(shown.json.chain.map((c) => c.id)).toEqual([rec.json.id, sup.json.new_id]);

    const twice = runJson<{ error: string; current_head: string }>(
      ['supersede', rec.json.id, '--body', 'x', '--rationale', 'y'],
      { cwd: repoA, env },
    );
    expect(twice.code).not.toBe(0);
    expect(twice.json.current_head).toBe(sup.json.new_id);

    const out = join(t.path, 'export.md');
    const exp = runJson<{ path: string; records: number }>(['export', '--out', out], { cwd: repoA, env });
    expect(exp.json.records).toBe(1);
    const md = readFileSync(out, 'utf8');
    expect(md).toContain('## Decisions');
    expect(md).toContain('built-in fetch');
    expect(md).not.toContain('undici for outbound');
  });

  it('never shows project A records from project B', () => {
    runJson(
      [
        'record',
        '--type',
        'convention',
        '--title',
        'Secret alpha rule',
        '--body',
        'Alpha uses zebra naming.',
      ],
      {
        cwd: repoA,
        env,
      },
    );
    const fromB = runJson<{ results: unknown[] }>(['search', 'zebra naming alpha'], { cwd: repoB, env });
    expect(fromB.json.results).toEqual([]);
    const status = runJson<{ counts: Record<string, number>; project: string }>(['status'], {
      cwd: repoB,
      env,
    });
    expect(status.json.project).toBe('beta');
    expect(Object.values(status.json.counts).reduce((a, b) => a + b, 0)).toBe(0);
    const exp = runAgentctx(['export'], { cwd: repoB, env });
    expect(exp.stdout).not.toContain('zebra');
  });

  it('rejects bad input with a one-line error and a non-zero exit, writing nothing', () => {
    const cases = [
      ['record', '--type', 'opinion', '--title', 't', '--body', 'b'],
      ['record', '--type', 'decision', '--title', 'x'.repeat(121), '--body', 'b'],
      ['record', '--type', 'decision', '--title', 't', '--body', 'b'.repeat(2001)],
      ['record', '--type', 'decision', '--title', 't'],
      ['record', '--bogus'],
      ['search'],
      ['search', 'x', '--limit', 'many'],
      ['show', 'NOPE'],
      ['nonsense'],
      ['config', 'set', 'reinforceThreshold', 'zero'],
    ];
    const before = runJson<{ counts: Record<string, number> }>(['status'], { cwd: repoB, env }).json.counts;
    for (const args of cases) {
      const res = runAgentctx(args, { cwd: repoB, env });
      expect(res.code, args.join(' ')).not.toBe(0);
      expect(res.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(res.stderr).toMatch(/^agentctx: /);
    }
    expect(runJson<{ counts: Record<string, number> }>(['status'], { cwd: repoB, env }).json.counts).toEqual(
      before,
    );
  });

  it('gets and sets config', () => {
    const set = runJson<{ config: { reinforceThreshold: number } }>(
      ['config', 'set', 'reinforceThreshold', '5'],
      {
        cwd: repoA,
        env,
      },
    );
    expect(set.json.config.reinforceThreshold).toBe(5);
    expect(runJson(['config', 'get', 'reinforceThreshold'], { cwd: repoA, env }).json).toEqual({
      reinforceThreshold: 5,
    });
    runJson(['config', '--no-llm'], { cwd: repoA, env });
    expect(runJson(['config', 'get', 'llm.enabled'], { cwd: repoA, env }).json).toEqual({
      'llm.enabled': false,
    });
    expect(existsSync(join(t.path, '.agentctx', 'config.json'))).toBe(true);
  });

  it('status reports trust levels and token windows; export --profile writes the global profile', () => {
    runJson(
      [
        'record',
        '--type',
        'preference',
        '--scope',
        'global',
        '--title',
        'Terse replies',
        '--body',
        'Keep answers short.',
      ],
      { cwd: repoA, env },
    );
    const hook = runAgentctx(['hook', 'user-prompt-submit'], {
      cwd: repoA,
      env,
      input: JSON.stringify({
        session_id: 'status-s1',
        transcript_path: join(t.path, 't.jsonl'),
        cwd: repoA,
        hook_event_name: 'UserPromptSubmit',
        prompt: 'which outbound HTTP client do we use, fetch?',
      }),
    });
    expect(hook.code).toBe(0);
    expect(hook.stdout).toContain('built-in fetch');
    // the turn ends: Stop writes the session's injected tokens to the store
    const stop = runAgentctx(['hook', 'stop'], {
      cwd: repoA,
      env,
      input: JSON.stringify({ session_id: 'status-s1', cwd: repoA, hook_event_name: 'Stop' }),
    });
    expect(stop.code).toBe(0);
    const status = runJson<{
      confidence: Record<string, number>;
      tokens: { last_session: number; last_7_days: number; all: number };
      last_session: { session_id: string } | null;
    }>(['status'], { cwd: repoA, env });
    expect(status.json.confidence.explicit).toBeGreaterThanOrEqual(2);
    expect(status.json.last_session?.session_id).toBe('status-s1');
    expect(status.json.tokens.last_session).toBeGreaterThan(0);
    expect(status.json.tokens.last_7_days).toBe(status.json.tokens.all);
    const exp = runJson<{ path: string; entries: number }>(['export', '--profile'], { cwd: repoA, env });
    expect(exp.json.entries).toBe(1);
    expect(readFileSync(exp.json.path, 'utf8')).toContain('Keep answers short.');
    expect(exp.json.path.startsWith(join(t.path, '.agentctx', 'profile'))).toBe(true);
  });

  it('resets only after confirmation', () => {
    const refused = runAgentctx(['reset'], { cwd: repoA, env });
    expect(refused.code).not.toBe(0);
    const count = () =>
      Object.values(
        runJson<{ counts: Record<string, number> }>(['status'], { cwd: repoA, env }).json.counts,
      ).reduce((a, b) => a + b, 0);
    expect(count()).toBeGreaterThan(0);
    const done = runJson<{ reset: boolean }>(['reset', '--yes'], { cwd: repoA, env });
    expect(done.json.reset).toBe(true);
    expect(count()).toBe(0);
  });
});
