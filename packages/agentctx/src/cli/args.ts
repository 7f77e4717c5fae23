import { AgentctxError } from '../shared/errors.js';

export type FlagKind = 'string' | 'boolean' | 'number';

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | number | undefined>;
}

/** Flags every command accepts. */
export const COMMON_FLAGS: Record<string, FlagKind> = { json: 'boolean', cwd: 'string', help: 'boolean' };

function camel(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/**
 * Parse `argv` against a declared set of flags: `--name value`, `--name=value`, `--flag`,
 * `--no-flag` for booleans, `--` ends flags. Unknown flags and missing values are errors.
 */
export function parseArgs(argv: readonly string[], spec: Record<string, FlagKind>): ParsedArgs {
  const all = { ...COMMON_FLAGS, ...spec };
  const out: ParsedArgs = { positionals: [], flags: {} };
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
    let kind = all[name];
    let negated = false;
    if (!kind && name.startsWith('no-') && all[name.slice(3)] === 'boolean') {
      name = name.slice(3);
      kind = 'boolean';
      negated = true;
    }
    if (!kind) throw new AgentctxError('usage', `unknown option --${name}`);
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
