// The command lines of the benchmarks: one typed parser over node:util's parseArgs (strict), so
// that a mistyped option stops the run with the usage instead of being ignored for half an hour.
import { parseArgs } from 'node:util';

interface Described {
  help: string;
  /** The placeholder shown in the usage (`N`, `DIR`…). */
  value?: string;
}
interface IntOption extends Described {
  kind: 'int';
  default: number;
  /** The smallest value taken (1 when unset). */
  min?: number;
}
interface IntsOption extends Described {
  kind: 'ints';
  default: readonly number[];
  min?: number;
}
interface StringOption extends Described {
  kind: 'string';
  default: string;
  required?: boolean;
}
interface ChoiceOption<C extends string = string> extends Described {
  kind: 'choice';
  choices: readonly C[];
  default: C;
}
interface ChoicesOption<C extends string = string> extends Described {
  kind: 'choices';
  choices: readonly C[];
  default: readonly C[];
}
interface FlagOption extends Described {
  kind: 'flag';
}
type Option = IntOption | IntsOption | StringOption | ChoiceOption | ChoicesOption | FlagOption;
type Spec = Record<string, Option>;

type ValueOf<O> = O extends { kind: 'int' }
  ? number
  : O extends { kind: 'ints' }
    ? number[]
    : O extends { kind: 'flag' }
      ? boolean
      : O extends { kind: 'choice'; choices: readonly (infer C)[] }
        ? C
        : O extends { kind: 'choices'; choices: readonly (infer C)[] }
          ? C[]
          : string;
type Values<S extends Spec> = { [K in keyof S]: ValueOf<S[K]> };

interface Command<S extends Spec> {
  /** Its npm script (`bench:hooks`): the usage reads `npm run bench:hooks -- [options]`. */
  name: string;
  summary: string;
  options: S;
  /** Operands after the options (`[N,N…]`): their usage text, and how many are taken. */
  positionals?: { usage: string; max: number };
}

/** A command with its option types inferred (choices as their literal types). */
/** `--store DIR`: a store kept by `bench:scale --keep` (the benches run on one afterwards). */
export const KEPT_STORE = {
  kind: 'string',
  default: '',
  required: true,
  help: 'a store kept by bench:scale --keep',
  value: 'DIR',
} as const satisfies StringOption;

export const defineCommand = <const S extends Spec>(cmd: Command<S>): Command<S> => cmd;

type Outcome<S extends Spec> =
  | { kind: 'ok'; values: Values<S>; positionals: string[] }
  | { kind: 'help'; text: string }
  | { kind: 'error'; text: string };

/** The usage text: the command line, what it does, and each option with its default. */
export function usage<S extends Spec>(cmd: Command<S>): string {
  const rows = Object.entries(cmd.options).map(([name, o]) => {
    const left = o.kind === 'flag' ? `--${name}` : `--${name} ${o.value ?? placeholder(o)}`;
    const def =
      o.kind === 'flag' || (o.kind === 'string' && (o.required || o.default === ''))
        ? o.kind === 'string' && o.required
          ? ' (required)'
          : ''
        : ` (default ${Array.isArray(o.default) ? o.default.join(',') : String(o.default)})`;
    return [left, `${o.help}${def}`] as const;
  });
  rows.push(['-h, --help', 'print this text']);
  const width = Math.max(...rows.map(([l]) => l.length)) + 2;
  return [
    `usage: npm run ${cmd.name} -- [options]${cmd.positionals ? ` ${cmd.positionals.usage}` : ''}`,
    cmd.summary,
    '',
    'options:',
    ...rows.map(([l, r]) => `  ${l.padEnd(width)}${r}`),
  ].join('\n');
}

function placeholder(o: Option): string {
  switch (o.kind) {
    case 'int':
      return 'N';
    case 'ints':
      return 'N,N…';
    case 'choice':
      return o.choices.join('|');
    case 'choices':
      return `${o.choices.join(',')}`;
    default:
      return 'VALUE';
  }
}

class BadValue extends Error {}

function intOf(name: string, text: string, min: number): number {
  if (!/^-?\d+$/.test(text))
    throw new BadValue(`--${name} takes a whole number, not ${JSON.stringify(text)}`);
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < min)
    throw new BadValue(`--${name} takes a number ≥ ${min}, not ${text}`);
  return n;
}

function convert(name: string, o: Option, raw: string | boolean | undefined): unknown {
  if (o.kind === 'flag') return raw === true;
  if (raw === undefined) {
    if (o.kind === 'string' && o.required) throw new BadValue(`--${name} ${o.value ?? 'VALUE'} is required`);
    return Array.isArray(o.default) ? [...o.default] : o.default;
  }
  const text = String(raw);
  switch (o.kind) {
    case 'int':
      return intOf(name, text, o.min ?? 1);
    case 'ints':
      return text.split(',').map((t) => intOf(name, t, o.min ?? 1));
    case 'string':
      if (text === '') throw new BadValue(`--${name} takes a value`);
      return text;
    case 'choice':
      if (!(o.choices as readonly string[]).includes(text))
        throw new BadValue(`--${name} takes one of ${o.choices.join(', ')}, not ${JSON.stringify(text)}`);
      return text;
    case 'choices': {
      const picked = text.split(',');
      const bad = picked.filter((p) => !(o.choices as readonly string[]).includes(p));
      if (bad.length > 0 || picked.length === 0)
        throw new BadValue(`--${name} takes some of ${o.choices.join(',')}, not ${JSON.stringify(text)}`);
      return picked;
    }
  }
}

/** Parse `argv` against `cmd`: the typed values, a request for help, or an error (exit 2). */
export function parseCommandLine<S extends Spec>(cmd: Command<S>, argv: readonly string[]): Outcome<S> {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, o] of Object.entries(cmd.options))
    options[name] = { type: o.kind === 'flag' ? 'boolean' : 'string' };
  const fail = (message: string): Outcome<S> => ({
    kind: 'error',
    text: `${cmd.name}: ${message}\n\n${usage(cmd)}`,
  });
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: true });
  } catch (err) {
    // parseArgs' hint about positionals that start with a dash is noise for a mistyped option
    return fail((err as Error).message.replace(/\. To specify a positional argument.*$/s, ''));
  }
  if (parsed.values.help === true) return { kind: 'help', text: usage(cmd) };
  const max = cmd.positionals?.max ?? 0;
  if (parsed.positionals.length > max)
    return fail(
      max === 0
        ? `unexpected argument ${JSON.stringify(parsed.positionals[0])}`
        : `at most ${max} operands (${cmd.positionals?.usage}), got ${parsed.positionals.length}`,
    );
  const values: Record<string, unknown> = {};
  try {
    for (const [name, o] of Object.entries(cmd.options))
      values[name] = convert(name, o, parsed.values[name] as string | boolean | undefined);
  } catch (err) {
    if (err instanceof BadValue) return fail(err.message);
    throw err;
  }
  return { kind: 'ok', values: values as Values<S>, positionals: parsed.positionals };
}

/** Stop with `message` and the usage on stderr, exit code 2 (for operands checked by the caller). */
export function usageError<S extends Spec>(cmd: Command<S>, message: string): never {
  process.stderr.write(`${cmd.name}: ${message}\n\n${usage(cmd)}\n`);
  process.exit(2);
}

/** A comma list of whole numbers ≥ 1 given as an operand, or the usage error. */
export function sizesOperand<S extends Spec>(
  cmd: Command<S>,
  text: string | undefined,
  def: number[],
): number[] {
  if (text === undefined) return def;
  const sizes = text.split(',').map(Number);
  if (sizes.some((n) => !Number.isSafeInteger(n) || n < 1))
    usageError(cmd, `sizes are whole numbers ≥ 1 separated by commas, not ${JSON.stringify(text)}`);
  return sizes;
}

/** Parse this process's arguments: the values, or the usage printed and the process ended. */
export function parseOrExit<S extends Spec>(
  cmd: Command<S>,
  argv: readonly string[] = process.argv.slice(2),
): { values: Values<S>; positionals: string[] } {
  const out = parseCommandLine(cmd, argv);
  if (out.kind === 'help') {
    process.stdout.write(`${out.text}\n`);
    process.exit(0);
  }
  if (out.kind === 'error') {
    process.stderr.write(`${out.text}\n`);
    process.exit(2);
  }
  return out;
}
