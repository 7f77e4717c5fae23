import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommandIO } from '../../../src/cli/command.js';
import { runCli } from '../../../src/cli/main.js';
import { COMMANDS } from '../../../src/cli/registry.js';
import { hostileWord, PROTOTYPE_NAMES } from '../../support/hostile-argv.js';
import { tempDir } from '../../support/tmp.js';

interface Captured {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function run(argv: string[]): Promise<Captured> {
  const out: Captured = { code: -1, stdout: [], stderr: [] };
  const io: CommandIO = {
    stdout: (t) => out.stdout.push(t),
    stderr: (t) => out.stderr.push(t),
    stdinIsTTY: false,
    confirm: async () => false,
  };
  out.code = await runCli(argv, io);
  return out;
}

const NOT_COMMANDS = new Set(['', 'help', '--help', '-h', 'version', '--version', '-v']);

// runCli opens the store of process.env on the paths that get that far: keep it in a throwaway home.
let t: ReturnType<typeof tempDir>;
let saved: string | undefined;
beforeAll(() => {
  t = tempDir();
  saved = process.env.AGENTCTX_HOME;
  process.env.AGENTCTX_HOME = `${t.path}/home`;
});
afterAll(() => {
  if (saved === undefined) delete process.env.AGENTCTX_HOME;
  else process.env.AGENTCTX_HOME = saved;
  t.cleanup();
});

describe('runCli with names it does not know', () => {
  it.each(PROTOTYPE_NAMES)('`agentctx %s` is an unknown command (exit 2, one line)', async (name) => {
    const res = await run([name]);
    expect(res.code).toBe(2);
    expect(res.stdout).toEqual([]);
    expect(res.stderr).toHaveLength(1);
    expect(res.stderr[0]).toMatch(/^agentctx: unknown command /);
  });

  it('refuses any unknown command with a one-line usage error (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        hostileWord().filter((w) => !Object.hasOwn(COMMANDS, w) && !NOT_COMMANDS.has(w)),
        fc.array(hostileWord(), { maxLength: 3 }),
        async (name, rest) => {
          const res = await run([name, ...rest]);
          expect(res.code).toBe(2);
          expect(res.stderr).toHaveLength(1);
          expect(res.stderr[0]).toMatch(/^agentctx: unknown command /);
          expect(res.stderr[0]).not.toContain('\n');
          if (rest.includes('--json')) expect(JSON.parse(res.stdout[0]!).code).toBe('usage');
          else expect(res.stdout).toEqual([]);
        },
      ),
      { seed: 424242, numRuns: 200 },
    );
  });

  it('refuses an option named after a prototype property on every command (generated)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...Object.keys(COMMANDS)),
        fc.constantFrom(...PROTOTYPE_NAMES),
        fc.constantFrom('space', 'equals', 'negated'),
        async (command, name, form) => {
          const opt =
            form === 'equals' ? [`--${name}=x`] : form === 'negated' ? [`--no-${name}`] : [`--${name}`, 'x'];
          const res = await run([command, ...opt]);
          expect(res.code).toBe(2);
          expect(res.stderr).toHaveLength(1);
          expect(res.stderr[0]).toMatch(/^agentctx: unknown option /);
        },
      ),
      { seed: 99, numRuns: 120 },
    );
  });

  it('gives `config get|set` of a prototype name a clear error', async () => {
    for (const name of PROTOTYPE_NAMES) {
      for (const argv of [
        ['config', 'get', name],
        ['config', 'set', name, 'x'],
        ['config', 'get', `llm.${name}`],
      ]) {
        const res = await run(argv);
        expect(res.code, argv.join(' ')).toBe(2);
        expect(res.stderr[0], argv.join(' ')).toMatch(/^agentctx: unknown setting /);
      }
    }
  });
});
