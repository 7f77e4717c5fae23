import { AgentctxError } from '../shared/errors.js';
import { nearest } from './suggest.js';

export type FlagKind = 'string' | 'boolean' | 'number';

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | number | undefined>;
}

/** Flags every command accepts. */
export const COMMON_FLAGS: Readonly<Record<string, FlagKind>> = Object.freeze({
  json: 'boolean',
  cwd: 'string',
  help: 'boolean',
});

/** The kind of a declared flag; own properties only, so `--constructor` or `--__proto__` are unknown. */
function kindOf(all: Record<string, FlagKind>, name: string): FlagKind | undefined {
  return Object.hasOwn(all, name) ? all[name] : undefined;
}

/** An option name as an error message shows it: plain words as typed, anything else quoted. */
function shown(name: string): string {
  return /^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$/.test(name) ? `--${name}` : JSON.stringify(`--${name}`);
}

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Parse `argv` against a declared set of flags: `--name value`, `--name=value`, `--flag`,
 * `--no-flag` for booleans, `--` ends flags. Unknown flags and missing values are errors.
 */
export function parseArgs(argv: readonly string[], spec: Record<string, FlagKind>): ParsedArgs {
  const all = { ...COMMON_FLAGS, ...spec };
  // a map without a prototype: a key is present only when a flag put it there
  const out: ParsedArgs = { positionals: [], flags: Object.create(null) as ParsedArgs['flags'] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (!arg.startsWith('--') || arg === '--') {
      out.positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    let name = arg.slice(2, eq === -1 ? undefined : eq);
    let kind = kindOf(all, name);
    let negated = false;
    if (!kind && name.startsWith('no-') && kindOf(all, name.slice(3)) === 'boolean') {
      name = name.slice(3);
      kind = 'boolean';
      negated = true;
    }
    if (!kind) {
      const near = nearest(name, Object.keys(all));
      const hint = near.length > 0 ? `; did you mean ${near.map((n) => `--${n}`).join(' or ')}?` : '';
      throw new AgentctxError('usage', `unknown option ${shown(name)}${hint}`);
    }
    const key = camel(name);
    if (kind === 'boolean') {
      if (eq !== -1) throw new AgentctxError('usage', `--${name} takes no value`);
      out.flags[key] = !negated;
      continue;
    }
    let value: string | undefined;
    if (eq !== -1) value = arg.slice(eq + 1);
    else {
      value = argv[i + 1];
      i++;
    }
    if (value === undefined) throw new AgentctxError('usage', `--${name} needs a value`);
    if (kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n))
        throw new AgentctxError('usage', `--${name} must be a number (got ${JSON.stringify(value)})`);
      out.flags[key] = n;
    } else out.flags[key] = value;
  }
  return out;
}

export function str(flags: ParsedArgs['flags'], key: string): string | undefined {
  const v = flags[key];
  return typeof v === 'string' ? v : undefined;
}

export function num(flags: ParsedArgs['flags'], key: string): number | undefined {
  const v = flags[key];
  return typeof v === 'number' ? v : undefined;
}

export function bool(flags: ParsedArgs['flags'], key: string): boolean {
  return flags[key] === true;
}
