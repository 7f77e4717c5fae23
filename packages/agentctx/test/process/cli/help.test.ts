import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, isolatedEnv, runAgentctx } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

/**
 * The CLI explains itself: `--help` lists every command with one line, in groups; a command's
 * `--help` shows its options and a real example; a mistyped command or option gets the nearest
 * name. Colour only on a terminal (FORCE_COLOR stands in for one here), never with NO_COLOR.
 */

const ANSI = /\x1b\[[0-9;]*m/;

function run(args: string[], extra: Record<string, string> = {}) {
  const t = tempDir();
  try {
    return runAgentctx(args, { cwd: t.path, env: isolatedEnv(t.path, extra) });
  } finally {
    t.cleanup();
  }
}

describe('agentctx --help', () => {
  it('lists each command with a one-line summary, grouped, plain when piped', () => {
    const res = run(['--help']);
    expect(res.code).toBe(0);
    const out = res.stdout;
    expect(out).not.toMatch(ANSI);
    const everyday = out.indexOf('Everyday:');
    const setup = out.indexOf('Setup:');
    const maintenance = out.indexOf('Maintenance');
    expect(everyday).toBeGreaterThan(0);
    expect(setup).toBeGreaterThan(everyday);
    expect(maintenance).toBeGreaterThan(setup);
    for (const [name, group] of [
      ['demo', everyday],
      ['search', everyday],
      ['init', setup],
      ['doctor', setup],
      ['consolidate', maintenance],
      ['reset', maintenance],
    ] as const) {
      const line = new RegExp(`^  ${name} +\\S.{10,}$`, 'm').exec(out);
      expect(line, name).not.toBeNull();
      expect(line?.index, name).toBeGreaterThan(group);
    }
    expect(out).not.toMatch(/^Other:/m);
    expect(run(['help']).stdout).toBe(out);
  });

  it.skipIf(spawnSync('script', ['--version']).status !== 0)(
    'colours on a real terminal (a pty), and not with NO_COLOR',
    () => {
      const t = tempDir();
      try {
        const inPty = (extra: Record<string, string>) =>
          spawnSync('script', ['-qec', `"${process.execPath}" "${BIN}" --help`, '/dev/null'], {
            cwd: t.path,
            env: { ...isolatedEnv(t.path, extra), TERM: 'xterm' },
            encoding: 'utf8',
            timeout: 30_000,
          }).stdout;
        expect(inPty({})).toMatch(ANSI);
        expect(inPty({ NO_COLOR: '1' })).not.toMatch(ANSI);
        expect(inPty({ NO_COLOR: '1' })).toMatch(/Everyday:/);
      } finally {
        t.cleanup();
      }
    },
  );

  it('colours with FORCE_COLOR and honours NO_COLOR', () => {
    expect(run(['--help'], { FORCE_COLOR: '1' }).stdout).toMatch(ANSI);
    expect(run(['--help'], { FORCE_COLOR: '1', NO_COLOR: '1' }).stdout).not.toMatch(ANSI);
  });

  it('shows a command’s options with what each does, and real examples', () => {
    for (const args of [
      ['search', '--help'],
      ['help', 'search'],
      ['search', '--limt', '3', '--help'],
    ]) {
      const res = run(args);
      expect(res.code, args.join(' ')).toBe(0);
      expect(res.stdout).toMatch(/^Usage: agentctx search QUERY/m);
      expect(res.stdout).toMatch(/^ {2}--type VALUE +only records of this type/m);
      expect(res.stdout).toMatch(/^ {2}--limit N +at most N results/m);
      expect(res.stdout).toMatch(/^ {2}--json +print exactly one JSON object/m);
      expect(res.stdout).toMatch(/^Examples:\n {2}agentctx search "sqlite concurrency"/m);
    }
  });

  it('suggests the nearest command for a mistyped one (exit 2)', () => {
    const res = run(['serch', 'x']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      'agentctx: unknown command "serch"; did you mean agentctx search? run agentctx --help for the list\n',
    );
    const json = run(['docter', '--json']);
    expect(json.code).toBe(2);
    expect(JSON.parse(json.stdout)).toMatchObject({ code: 'usage', suggestions: ['doctor'] });
    const far = run(['xylophone']);
    expect(far.code).toBe(2);
    expect(far.stderr).not.toMatch(/did you mean/);
  });

  it('suggests the nearest option for a mistyped one', () => {
    const res = run(['search', 'x', '--limt', '3']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe('agentctx: unknown option --limt; did you mean --limit?\n');
  });
});
