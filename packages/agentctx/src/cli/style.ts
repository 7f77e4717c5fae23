/**
 * Terminal styling for the CLI's human output: ANSI colour on a terminal, plain text when
 * piped, `NO_COLOR` honoured (any non-empty value turns colour off), `FORCE_COLOR` forcing it
 * on. Hand-written (a few escape codes) rather than a library: node_modules are shared, and the
 * CLI needs five colours and a table.
 */

export interface Style {
  readonly enabled: boolean;
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

type Env = Record<string, string | undefined>;

/** Whether output to a stream should be coloured. */
export function colourWanted(isTTY: boolean, env: Env): boolean {
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return force !== '0' && force.toLowerCase() !== 'false';
  return isTTY && env.TERM !== 'dumb';
}

function wrap(open: number, close: number, on: boolean) {
  return (s: string) => (on && s ? `\x1b[${open}m${s}\x1b[${close}m` : s);
}

export function makeStyle(enabled: boolean): Style {
  return {
    enabled,
    bold: wrap(1, 22, enabled),
    dim: wrap(2, 22, enabled),
    red: wrap(31, 39, enabled),
    green: wrap(32, 39, enabled),
    yellow: wrap(33, 39, enabled),
    cyan: wrap(36, 39, enabled),
  };
}

const ANSI = /\x1b\[[0-9;]*m/g;

/** The text without colour codes. */
export function stripStyle(s: string): string {
  return s.replace(ANSI, '');
}

/** Display width: colour codes count for nothing. */
export function visibleWidth(s: string): number {
  return [...stripStyle(s)].length;
}

/**
 * Rows as aligned columns, two spaces apart; the last column is never padded. Cells may carry
 * colour. `indent` prefixes every line.
 */
export function table(rows: readonly (readonly string[])[], indent = ''): string {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, visibleWidth(cell));
    });
  return rows
    .map(
      (row) =>
        indent +
        row
          .map((cell, i) =>
            i === row.length - 1 ? cell : cell + ' '.repeat((widths[i] ?? 0) - visibleWidth(cell)),
          )
          .join('  ')
          .trimEnd(),
    )
    .join('\n');
}

/** `1 record`, `2 records`: a count with its noun in the right number. */
export function count(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
