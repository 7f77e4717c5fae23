// Every benchmark entry, built: it answers --help with its usage and refuses an unknown option
// with exit code 2 before measuring anything, and every npm script of a benchmark runs one.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isolatedEnv, PACKAGE_ROOT } from '../../support/cli.js';
import { tempDir } from '../../support/tmp.js';

const ENTRIES = readdirSync(join(PACKAGE_ROOT, 'src', 'bench', 'entries'))
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -3));
const SCRIPTS = (
  JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;
/** npm script → the built entry it runs. */
const BENCH_SCRIPTS = new Map(
  Object.entries(SCRIPTS).flatMap(([name, cmd]) => {
    const m = /node dist\/bench\/([\w-]+)\.js$/.exec(cmd);
    return m?.[1] ? [[name, m[1]] as const] : [];
  }),
);
const home = tempDir('agentctx-bench-entries-');
afterAll(() => home.cleanup());
const env = isolatedEnv(home.path);

const run = (entry: string, args: string[]) => {
  const r = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'dist', 'bench', `${entry}.js`), ...args], {
    cwd: home.path,
    env,
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('the benchmark entries (dist/bench, built from src/bench/entries)', () => {
  it('each has an npm script, and each benchmark npm script runs a built entry', () => {
    expect(ENTRIES.length).toBeGreaterThan(20);
    expect([...BENCH_SCRIPTS.values()].sort()).toEqual([...ENTRIES].sort());
    for (const entry of ENTRIES)
      expect(existsSync(join(PACKAGE_ROOT, 'dist', 'bench', `${entry}.js`)), entry).toBe(true);
    for (const [name, cmd] of Object.entries(SCRIPTS))
      if (/^(bench|profile|measure)(:|$)/.test(name))
        expect(BENCH_SCRIPTS.has(name), `${name}: ${cmd}`).toBe(true);
  });

  it.each([...BENCH_SCRIPTS])(
    'npm run %s -- --help prints its usage; an unknown option exits 2 with it',
    (script, entry) => {
      const help = run(entry, ['--help']);
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^usage: npm run ${script} -- \\[options\\]`));
      expect(help.stdout).toContain('--help');
      const bad = run(entry, ['--no-such-option']);
      expect(bad.code).toBe(2);
      expect(bad.stdout).toBe('');
      expect(bad.stderr).toContain("Unknown option '--no-such-option'");
      expect(bad.stderr).toContain(help.stdout.trim());
    },
  );

  it('any unknown option, among valid ones, stops a run before it starts (exit 2, the usage)', () => {
    const known = new Set(['over', 'help']);
    fc.assert(
      fc.property(
        fc
          .stringMatching(/^[a-z][a-z0-9-]{0,12}$/)
          .filter((n) => !known.has(n))
          .map((n) => `--${n}`),
        fc.boolean(),
        (flag, before) => {
          const args = before ? [flag, '--over', '60', 'holds.jsonl'] : ['--over', '60', 'holds.jsonl', flag];
          const r = run('lock-attribution', args);
          expect(r.code).toBe(2);
          expect(r.stderr).toContain(`'${flag}'`);
          expect(r.stderr).toContain('usage: npm run bench:lock-attribution -- [options]');
        },
      ),
      { numRuns: 8 },
    );
  });

  it('a bad value is refused the same way: a count that is not a number', () => {
    const r = run('hooks', ['--rounds', 'many']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--rounds takes a whole number, not "many"');
  });
});
