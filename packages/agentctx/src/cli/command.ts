import type { App } from '../app/context.js';
import type { FlagKind, ParsedArgs } from './args.js';

export interface CommandIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  stdinIsTTY: boolean;
  /** Colour and tables in human output (a terminal, NO_COLOR unset); plain when absent. */
  color?: boolean;
  /** The terminal's width (or COLUMNS when output is piped); absent: lines are not cut. */
  columns?: number;
  /** Ask a yes/no question on the terminal. */
  confirm: (question: string) => Promise<boolean>;
  /** One keystroke (a line's first character from a pipe); "q" at the end of input. */
  key?: (prompt: string) => Promise<string>;
  /** One line of text; null at the end of input. */
  ask?: (question: string) => Promise<string | null>;
}

export interface CommandContext {
  args: ParsedArgs;
  json: boolean;
  io: CommandIO;
  /** Opens the store and resolves the project on first use. */
  app: () => App;
}

/** What a command returns: the JSON object, and the human rendering of it. */
export interface CommandResult {
  json: unknown;
  text?: string;
  exitCode?: number;
}

/** Where `agentctx --help` lists a command. */
export type Group = 'everyday' | 'setup' | 'maintenance';

/** A command's own option: how it parses and what `--help` says of it. */
export interface OptionSpec {
  kind: FlagKind;
  help: string;
}

/**
 * One CLI command, its help included: a new command is one file under ./commands plus its line
 * in the registry.
 */
export interface Command {
  name: string;
  /** The first line of `agentctx NAME --help`. */
  summary: string;
  usage: string;
  group: Group;
  /** Its line in `agentctx --help`. */
  line: string;
  /** Option name as typed, without dashes → its kind and help (--json, --cwd, --help are common). */
  options: Record<string, OptionSpec>;
  /** Real command lines, each starting with `agentctx NAME`. */
  examples: string[];
  run(ctx: CommandContext): Promise<CommandResult> | CommandResult;
}

/** The option kinds the argument parser needs. */
export function flagKinds(options: Record<string, OptionSpec>): Record<string, FlagKind> {
  return Object.fromEntries(Object.entries(options).map(([name, o]) => [name, o.kind]));
}
