import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineCommand, parseCommandLine, usage } from '../../../src/bench/args.js';

const cmd = defineCommand({
  name: 'bench:test',
  summary: 'A command with one option of each kind.',
  options: {
    rounds: { kind: 'int', default: 21, help: 'rounds' },
    offset: { kind: 'int', default: 0, min: 0, help: 'offset' },
    sizes: { kind: 'ints', default: [1000, 10000], help: 'sizes' },
    store: { kind: 'string', default: '', help: 'a store', value: 'DIR' },
    path: { kind: 'choice', choices: ['hook', 'mcp', 'engine'], default: 'hook', help: 'path' },
    parts: { kind: 'choices', choices: ['a', 'b', 'c'], default: ['a', 'b', 'c'], help: 'parts' },
    json: { kind: 'flag', help: 'json' },
    'no-prof': { kind: 'flag', help: 'no profiler' },
  },
});
const NAMES = new Set([...Object.keys(cmd.options), 'help']);

/** A value for each option, or undefined (left out: its default). */
const assignment = fc.record({
  rounds: fc.option(fc.integer({ min: 1, max: 1e9 }), { nil: undefined }),
  offset: fc.option(fc.integer({ min: 0, max: 1e9 }), { nil: undefined }),
  sizes: fc.option(fc.array(fc.integer({ min: 1, max: 1e7 }), { minLength: 1, maxLength: 4 }), {
    nil: undefined,
  }),
  store: fc.option(
    fc.string({ minLength: 1, maxLength: 12 }).filter((s) => !s.startsWith('-')),
    { nil: undefined },
  ),
  path: fc.option(fc.constantFrom('hook', 'mcp', 'engine'), { nil: undefined }),
  parts: fc.option(fc.subarray(['a', 'b', 'c'], { minLength: 1 }), { nil: undefined }),
  json: fc.boolean(),
  'no-prof': fc.boolean(),
});
type Assignment = typeof assignment extends fc.Arbitrary<infer T> ? T : never;

/** The assignment as argv words (`--name value`, or `--name=value` where `joined`), ordered by `keys`. */
function argvOf(a: Assignment, keys: readonly number[], joined: (i: number) => boolean): string[] {
  const words: string[][] = [];
  for (const [name, value] of Object.entries(a)) {
    if (value === undefined || value === false) continue;
    if (value === true) words.push([`--${name}`]);
    else {
      const text = Array.isArray(value) ? value.join(',') : String(value);
      words.push(joined(words.length) ? [`--${name}=${text}`] : [`--${name}`, text]);
    }
  }
  return words
    .map((w, i) => ({ w, k: keys[i] ?? i }))
    .sort((x, y) => x.k - y.k)
    .flatMap(({ w }) => w);
}

describe('the benchmarks’ argument parser', () => {
  it('parses any valid combination, in any order and either form, to the typed values', () => {
    fc.assert(
      fc.property(
        assignment,
        fc.array(fc.nat(100), { minLength: 8, maxLength: 8 }),
        fc.array(fc.boolean(), { minLength: 8, maxLength: 8 }),
        (a, keys, joined) => {
          const out = parseCommandLine(
            cmd,
            argvOf(a, keys, (i) => joined[i] ?? false),
          );
          expect(out.kind).toBe('ok');
          if (out.kind !== 'ok') return;
          expect(out.values).toEqual({
            rounds: a.rounds ?? 21,
            offset: a.offset ?? 0,
            sizes: a.sizes ?? [1000, 10000],
            store: a.store ?? '',
            path: a.path ?? 'hook',
            parts: a.parts ?? ['a', 'b', 'c'],
            json: a.json,
            'no-prof': a['no-prof'],
          });
          expect(out.positionals).toEqual([]);
        },
      ),
    );
  });

  it('refuses any unknown option, wherever it stands, with the usage (exit code 2)', () => {
    const unknown = fc.oneof(
      fc
        .stringMatching(/^[a-z][a-z0-9-]{0,14}$/)
        .filter((n) => !NAMES.has(n))
        .map((n) => `--${n}`),
      fc.constantFrom(...'abcdefgijklmnopqrstuvwxyz'.split('')).map((c) => `-${c}`),
    );
    fc.assert(
      fc.property(assignment, unknown, fc.nat(), fc.boolean(), (a, flag, at, withValue) => {
        const argv = argvOf(a, [], () => true); // --name=value words: any cut between them is a word boundary
        const word = withValue && flag.startsWith('--') ? `${flag}=1` : flag;
        argv.splice(at % (argv.length + 1), 0, word);
        const out = parseCommandLine(cmd, argv);
        expect(out.kind).toBe('error');
        if (out.kind !== 'error') return;
        expect(out.text).toContain(usage(cmd));
        expect(out.text).toContain(flag.replace(/^-+/, ''));
      }),
    );
  });

  it('refuses a bad value: not a number, below the minimum, not a choice, no value, a stray operand', () => {
    const bad = fc.oneof(
      fc
        .string()
        .filter((s) => !/^\d+$/.test(s))
        .map((s) => [`--rounds=${s}`]),
      fc.integer({ max: 0 }).map((n) => [`--rounds=${n}`]),
      fc.integer({ max: -1 }).map((n) => [`--offset=${n}`]),
      fc
        .string()
        .filter((s) => !/^\d+(,\d+)*$/.test(s))
        .map((s) => [`--sizes=${s}`]),
      fc
        .string()
        .filter((s) => !['hook', 'mcp', 'engine'].includes(s))
        .map((s) => [`--path=${s}`]),
      fc
        .string({ minLength: 1 })
        .filter((s) => s.split(',').some((p) => !['a', 'b', 'c'].includes(p)))
        .map((s) => [`--parts=${s}`]),
      fc.constantFrom(['--rounds'], ['--store'], ['--store='], ['--json=yes'], ['stray']),
    );
    fc.assert(
      fc.property(bad, (argv) => {
        const out = parseCommandLine(cmd, argv);
        expect(out.kind, argv.join(' ')).toBe('error');
        if (out.kind === 'error') expect(out.text).toContain(usage(cmd));
      }),
    );
  });

  it('answers --help and -h with the usage, and names every option with its default', () => {
    for (const argv of [['--help'], ['-h'], ['--rounds', '3', '--help']]) {
      const out = parseCommandLine(cmd, argv);
      expect(out).toEqual({ kind: 'help', text: usage(cmd) });
    }
    const text = usage(cmd);
    expect(text).toMatch(/^usage: npm run bench:test -- \[options\]/);
    for (const name of Object.keys(cmd.options)) expect(text).toContain(`--${name}`);
    expect(text).toContain('(default 1000,10000)');
  });

  it('takes a required option only when given, and operands up to their count', () => {
    const req = defineCommand({
      name: 'bench:req',
      summary: 's',
      options: { store: { kind: 'string', default: '', required: true, help: 'store', value: 'DIR' } },
      positionals: { usage: '[N]', max: 1 },
    });
    expect(parseCommandLine(req, []).kind).toBe('error');
    expect(parseCommandLine(req, ['--store', 'x', '1', '2']).kind).toBe('error');
    expect(parseCommandLine(req, ['--store', 'x', '7'])).toEqual({
      kind: 'ok',
      values: { store: 'x' },
      positionals: ['7'],
    });
  });
});
