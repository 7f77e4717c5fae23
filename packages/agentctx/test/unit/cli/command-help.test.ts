import { describe, expect, it } from 'vitest';
import { parseArgs } from '../../../src/cli/args.js';
import { type Command, flagKinds } from '../../../src/cli/command.js';
import { commandHelp, mainHelp } from '../../../src/cli/help.js';
import { COMMANDS } from '../../../src/cli/registry.js';
import { makeStyle } from '../../../src/cli/style.js';

const all = async (): Promise<Command[]> => Promise.all(Object.values(COMMANDS).map((load) => load()));

/** A command line split as a shell would split these examples: words, and '…' or "…" quoted. */
function words(line: string): string[] {
  return [...line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
}

describe('each command carries its own help', () => {
  it('a line, a help text for every option, and examples that parse with its own options', async () => {
    for (const command of await all()) {
      expect(command.line.trim(), command.name).not.toBe('');
      expect(command.summary.trim(), command.name).not.toBe('');
      for (const [flag, o] of Object.entries(command.options))
        expect(o.help.trim(), `${command.name} --${flag}`).not.toBe('');
      expect(command.examples.length, command.name).toBeGreaterThan(0);
      for (const e of command.examples) {
        const [bin, name, ...rest] = words(e);
        expect([bin, name], e).toEqual(['agentctx', command.name]);
        expect(() => parseArgs(rest, flagKinds(command.options)), e).not.toThrow();
      }
    }
  });

  it('`agentctx --help` lists every command once, and `NAME --help` every option', async () => {
    const commands = await all();
    const style = makeStyle(false);
    const main = mainHelp(commands, style);
    for (const command of commands) {
      const rows = main.split('\n').filter((l) => l.trim().split(/\s+/)[0] === command.name);
      expect(rows, command.name).toHaveLength(1);
      expect(rows[0]).toContain(command.line);
      const own = commandHelp(command, style);
      for (const [flag, o] of Object.entries(command.options)) {
        const row = own.split('\n').find((l) => l.trim().startsWith(`--${flag}`));
        expect(row, `${command.name} --${flag}`).toContain(o.help);
      }
    }
  });
});

describe('extract --agent', () => {
  it('names, in its usage and its help, exactly the agents whose transcripts it reads', async () => {
    const { command } = await import('../../../src/cli/commands/extract.js');
    const { HOOK_AGENTS } = await import('../../../src/shared/agents.js');
    const usage = /--agent ([a-z|-]+)\]/.exec(command.usage)?.[1]?.split('|') ?? [];
    const help = command.options.agent?.help ?? '';
    for (const agent of HOOK_AGENTS) {
      const readable = usage.includes(agent);
      expect(help.includes(agent), agent).toBe(readable);
    }
    expect(usage.length).toBeGreaterThan(2);
  });
});
