import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isolatedEnv, runAgentctx, runJson } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/**
 * Issue 31 #18: "wrote 1 team records", "(not confirmed (run with --yes…))", raw database column
 * names in `show`. Counts agree with their nouns, no parentheses nest, show speaks in words, and
 * every text answer ends its last line.
 */

let t: ReturnType<typeof tempDir>;
let env: NodeJS.ProcessEnv;
let repo: string;
const ax = (args: string[]) => runAgentctx(args, { cwd: repo, env });
const nested = /\([^()]*\(/;

beforeAll(() => {
  t = tempDir();
  env = isolatedEnv(t.path);
  repo = fakeRepo(t.path, 'shop', 'git@github.com:acme/shop.git');
});
afterAll(() => t.cleanup());

describe('wording', () => {
  it('counts agree with their nouns, as records come', () => {
    for (const n of [1, 2, 3]) {
      expect(
        ax(['record', '--type', 'decision', '--title', `Rule ${n}`, '--body', `Rule number ${n}.`]).code,
      ).toBe(0);
      const out = join(t.path, `x${n}.md`);
      const exp = ax(['export', '--out', out]);
      expect(exp.stdout).toBe(`wrote ${n} record${n === 1 ? '' : 's'} to ${out}\n`);
      if (n === 1) {
        const team = ax(['team', 'export']);
        expect(team.stdout).toMatch(/^wrote \d+ team records? in /);
        const k = Number(/^wrote (\d+)/.exec(team.stdout)![1]);
        expect(team.stdout).toContain(`${k} team record${k === 1 ? '' : 's'} in`);
      }
    }
  });

  it('a block removed from the team file and kept: one clause, no nested parentheses', () => {
    ax(['team', 'export', '--force']);
    const file = join(repo, '.agentctx', 'context.md');
    const text = readFileSync(file, 'utf8');
    // drop the block of "Rule 1" (its marker line, title and body)
    const cut = text.replace(
      /<!-- agentctx:id=\S+ type=decision[^\n]*\n### Rule 1\n\nRule number 1\.\n\n?/,
      '',
    );
    expect(cut).not.toBe(text);
    writeFileSync(file, cut);
    const imp = ax(['team', 'import']);
    expect(imp.stdout).toContain(
      'removed from the file, kept here: not confirmed; run agentctx team import --yes',
    );
    expect(imp.stdout).not.toMatch(nested);
  });

  // #18's "missing newline after export" did not reproduce (a terminal, pipes, --out, --json, empty
  // and filled stores, Node 22.16/24/26): this keeps it that way for every form of export.
  it('every form of export ends its last line, on an empty store and a filled one', () => {
    const empty = tempDir();
    try {
      const emptyEnv = isolatedEnv(empty.path);
      const emptyRepo = fakeRepo(empty.path, 'blank', null);
      for (const [e, cwd] of [
        [emptyEnv, emptyRepo],
        [env, repo],
      ] as const) {
        const dir = e === env ? t.path : empty.path;
        for (const args of [
          ['export'],
          ['export', '--history'],
          ['export', '--json'],
          ['export', '--out', join(dir, 'e.md')],
          ['export', '--profile'],
          ['team', 'export', '--force'],
        ]) {
          const r = runAgentctx(args, { cwd, env: e });
          expect(r.code, args.join(' ')).toBe(0);
          expect(r.stdout.endsWith('\n'), args.join(' ')).toBe(true);
          expect(r.stdout.endsWith('\n\n'), args.join(' ')).toBe(false);
        }
        expect(readFileSync(join(dir, 'e.md'), 'utf8').endsWith('\n')).toBe(true);
      }
    } finally {
      empty.cleanup();
    }
  });

  it('show names its fields in words; --json keeps the columns', () => {
    const id = runJson<{ results: { id: string }[] }>(['search', 'rule number'], { cwd: repo, env }).json
      .results[0]!.id;
    const shown = ax(['show', id]);
    expect(shown.stdout).not.toMatch(/^[a-z]+_[a-z_]+:/m);
    expect(shown.stdout).toMatch(/^valid from: +\d{4}-/m);
    expect(shown.stdout.endsWith('\n')).toBe(true);
    // a record written with agentctx record came from no agent's session: the header says so,
    // the values are words too (no source enum, no project hash), and counts agree with nouns
    expect(shown.stdout.split('\n')[1]).toMatch(/ · written by hand$/);
    expect(shown.stdout).not.toMatch(/written in /);
    expect(shown.stdout).toMatch(/^written by: +a person \(the CLI or the dashboard\)$/m);
    expect(shown.stdout).toMatch(/^project: +shop$/m);
    expect(shown.stdout).not.toMatch(/\(s\)/);
    expect(shown.stdout).toMatch(/^usage: shown in 0 sessions, /m);
    const json = runJson<{ record: Record<string, unknown> }>(['show', id], { cwd: repo, env }).json.record;
    expect(Object.keys(json)).toContain('reinforce_count');
  });
});
