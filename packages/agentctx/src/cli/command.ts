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

export interface Command {
  name: string;
  summary: string;
  usage: string;
  flags: Record<string, FlagKind>;
  run(ctx: CommandContext): Promise<CommandResult> | CommandResult;
}
