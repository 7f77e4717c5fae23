import { VERSION } from '../version.js';
import type { FlagKind } from './args.js';
import type { Command } from './command.js';
import { COMMON_OPTIONS, GROUP_TITLES, type Group, HELP } from './help-docs.js';
import { type Style, table } from './style.js';

/** `agentctx --help`: the commands by group, one line each. */
export function mainHelp(names: readonly string[], style: Style): string {
  const lines = [
    `${style.bold('agentctx')} ${VERSION}: project context for Claude Code`,
    '',
    `Usage: agentctx <command> [options]   ${style.dim('(every command takes --json, --cwd DIR and --help)')}`,
    `New here? ${style.bold('agentctx demo')} shows the loop in seconds; ${style.bold('agentctx init')} sets it up.`,
  ];
  for (const group of Object.keys(GROUP_TITLES) as Group[]) {
    // in the help's own order (most used first), for the commands there are
    const rows = Object.keys(HELP)
      .filter((n) => names.includes(n) && HELP[n]?.group === group)
      .map((n) => [style.bold(n), HELP[n]?.line ?? '']);
    if (rows.length === 0) continue;
    lines.push('', `${GROUP_TITLES[group]}:`, table(rows, '  '));
  }
  const undocumented = names.filter((n) => !HELP[n]);
  if (undocumented.length > 0)
    lines.push(
      '',
      'Other:',
      table(
        undocumented.map((n) => [n]),
        '  ',
      ),
    );
  lines.push(
    '',
    style.dim('Run by Claude Code itself: agentctx hook <event>, agentctx mcp.'),
    `Run ${style.bold('agentctx <command> --help')} for its options and examples.`,
  );
  return lines.join('\n');
}

function optionName(name: string, kind: FlagKind): string {
  const arg =
    kind === 'string'
      ? name === 'cwd' || name === 'keep'
        ? ' DIR'
        : ' VALUE'
      : kind === 'number'
        ? ' N'
        : '';
  return `--${name}${arg}`;
}

/** `agentctx <command> --help`: what it does, usage, options, examples. */
export function commandHelp(command: Command, style: Style): string {
  const doc = HELP[command.name];
  const lines = [command.summary, '', `${style.bold('Usage:')} ${command.usage}`];
  const rows = Object.entries(command.flags).map(([name, kind]) => [
    optionName(name, kind),
    doc?.options[name] ?? '',
  ]);
  for (const name of ['json', 'cwd', 'help'])
    rows.push([optionName(name, name === 'cwd' ? 'string' : 'boolean'), COMMON_OPTIONS[name] ?? '']);
  lines.push('', style.bold('Options:'), table(rows, '  '));
  if (doc && doc.examples.length > 0)
    lines.push('', style.bold('Examples:'), ...doc.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}
