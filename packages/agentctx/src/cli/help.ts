import { VERSION } from '../version.js';
import type { FlagKind } from './args.js';
import type { Command, Group } from './command.js';
import { type Style, table } from './style.js';

const GROUP_TITLES: Record<Group, string> = {
  everyday: 'Everyday',
  setup: 'Setup',
  maintenance: 'Maintenance (mostly run for you by the hooks)',
};

/** What the options every command takes do. */
const COMMON_OPTIONS: Record<string, string> = {
  json: 'print exactly one JSON object (for scripts)',
  cwd: 'run as if started in DIR (the project is the git repository around it)',
  help: 'show this help',
};

/** `agentctx --help`: the commands by group, one line each, in the registry's order. */
export function mainHelp(commands: readonly Command[], style: Style): string {
  const lines = [
    `${style.bold('agentctx')} ${VERSION}: project context for Claude Code`,
    '',
    `Usage: agentctx <command> [options]   ${style.dim('(every command takes --json, --cwd DIR and --help)')}`,
    `New here? ${style.bold('agentctx demo')} shows the loop in seconds; ${style.bold('agentctx init')} sets it up.`,
  ];
  for (const group of Object.keys(GROUP_TITLES) as Group[]) {
    const rows = commands.filter((c) => c.group === group).map((c) => [style.bold(c.name), c.line]);
    if (rows.length === 0) continue;
    lines.push('', `${GROUP_TITLES[group]}:`, table(rows, '  '));
  }
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
  const lines = [command.summary, '', `${style.bold('Usage:')} ${command.usage}`];
  const rows = Object.entries(command.options).map(([name, o]) => [optionName(name, o.kind), o.help]);
  for (const name of ['json', 'cwd', 'help'])
    rows.push([optionName(name, name === 'cwd' ? 'string' : 'boolean'), COMMON_OPTIONS[name] ?? '']);
  lines.push('', style.bold('Options:'), table(rows, '  '));
  if (command.examples.length > 0)
    lines.push('', style.bold('Examples:'), ...command.examples.map((e) => `  ${e}`));
  return lines.join('\n');
}
