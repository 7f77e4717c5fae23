import { createInterface } from 'node:readline';
import type { App } from '../app/context.js';
import { resolvePaths } from '../app/paths.js';
import { damagedStore, isDamagedStore } from '../database/store-error.js';
import { AgentctxError, errorMessage } from '../shared/errors.js';
import { VERSION } from '../version.js';
import { bool, parseArgs, str } from './args.js';
import { type CommandIO, flagKinds } from './command.js';
import { closeKeys, readKey, readLine } from './keys.js';
import { COMMANDS, commandLoader } from './registry.js';
import { colourWanted, makeStyle } from './style.js';
import { nearest } from './suggest.js';

/** The terminal's width; piped output takes COLUMNS when set, else is not cut. */
function terminalColumns(): number | undefined {
  if (process.stdout.isTTY && process.stdout.columns > 0) return process.stdout.columns;
  const env = Number(process.env.COLUMNS);
  return Number.isInteger(env) && env > 0 ? env : undefined;
}

function defaultIO(): CommandIO {
  return {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    color: colourWanted(Boolean(process.stdout.isTTY), process.env),
    columns: terminalColumns(),
    confirm: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        rl.question(`${question} [y/N] `, (answer) => {
          rl.close();
          resolve(/^y(es)?$/i.test(answer.trim()));
        });
      }),
    key: (prompt) => readKey(prompt, (t) => process.stderr.write(t)),
    ask: (question) => readLine(question, (t) => process.stderr.write(t)),
  };
}

/** The error for a command name that is not one, with the nearest names when there are any. */
function unknownCommand(name: string): AgentctxError {
  const near = nearest(name, Object.keys(COMMANDS));
  const hint = near.length > 0 ? `did you mean ${near.map((n) => `agentctx ${n}`).join(' or ')}? ` : '';
  return new AgentctxError(
    'usage',
    `unknown command ${JSON.stringify(name)}; ${hint}run agentctx --help for the list`,
    near.length > 0 ? { suggestions: near } : undefined,
  );
}

/** Run the CLI; returns the exit code. The one place where errors become exit codes. */
export async function runCli(argv: readonly string[], io: CommandIO = defaultIO()): Promise<number> {
  const [name, ...rest] = argv;
  const wantsJson = rest.includes('--json');
  if (name === 'help' && rest[0] && !rest[0].startsWith('-')) return runCli([rest[0], '--help'], io);
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    const { mainHelp } = await import('./help.js');
    const commands = await Promise.all(Object.values(COMMANDS).map((load) => load()));
    io.stdout(mainHelp(commands, makeStyle(io.color === true)));
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(wantsJson ? JSON.stringify({ version: VERSION }) : VERSION);
    return 0;
  }
  const load = commandLoader(name);
  let app: App | undefined;
  try {
    if (!load) throw unknownCommand(name);
    const command = await load();
    // --help wins over anything else on the line, a mistyped option included
    const end = rest.indexOf('--');
    const options = end === -1 ? rest : rest.slice(0, end);
    const args =
      options.includes('--help') || options.includes('-h')
        ? null
        : parseArgs(rest, flagKinds(command.options));
    if (args === null || bool(args.flags, 'help')) {
      const { commandHelp } = await import('./help.js');
      io.stdout(commandHelp(command, makeStyle(io.color === true)));
      return 0;
    }
    // the composition root, loaded with the command (not for --version or --help)
    const { createApp } = await import('../app/context.js');
    const json = bool(args.flags, 'json');
    const result = await command.run({
      args,
      json,
      io,
      app: () => {
        app ??= createApp({ cwd: str(args.flags, 'cwd') ?? process.cwd() });
        return app;
      },
    });
    if (json) io.stdout(JSON.stringify(result.json));
    else if (result.text !== undefined) io.stdout(result.text);
    else io.stdout(JSON.stringify(result.json, null, 2));
    return result.exitCode ?? 0;
  } catch (thrown) {
    const err = isDamagedStore(thrown) ? damagedStore(app?.paths.db ?? resolvePaths().db, thrown) : thrown;
    const known = err instanceof AgentctxError;
    const message = errorMessage(err).split('\n')[0];
    if (wantsJson) {
      io.stdout(
        JSON.stringify({
          error: message,
          code: known ? err.code : 'internal',
          ...(known ? err.details : {}),
        }),
      );
    }
    io.stderr(`agentctx: ${message}`);
    // 2: the request could not be done as asked; 1: something broke (a damaged store too)
    return known && err.code !== 'store_damaged' ? 2 : 1;
  } finally {
    app?.close();
    closeKeys();
  }
}
