import { createInterface } from 'node:readline';
import { type App, createApp } from '../app/context.js';
import { AgentctxError, errorMessage } from '../shared/errors.js';
import { VERSION } from '../version.js';
import { bool, parseArgs, str } from './args.js';
import type { CommandIO } from './command.js';
import { COMMANDS, commandLoader } from './registry.js';

function defaultIO(): CommandIO {
  return {
    stdout: (t) => process.stdout.write(t.endsWith('\n') ? t : `${t}\n`),
    stderr: (t) => process.stderr.write(t.endsWith('\n') ? t : `${t}\n`),
    stdinIsTTY: Boolean(process.stdin.isTTY),
    confirm: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr });
        rl.question(`${question} [y/N] `, (answer) => {
          rl.close();
          resolve(/^y(es)?$/i.test(answer.trim()));
        });
      }),
  };
}

function helpText(): string {
  return [
    `agentctx ${VERSION} — project context for Claude Code`,
    '',
    'Usage: agentctx <command> [options]   (every command takes --json and --cwd DIR)',
    '',
    'Commands:',
    ...Object.keys(COMMANDS).map((c) => `  ${c}`),
    '',
    'Run `agentctx <command> --help` for a command’s options.',
  ].join('\n');
}

/** Run the CLI; returns the exit code. The one place where errors become exit codes. */
export async function runCli(argv: readonly string[], io: CommandIO = defaultIO()): Promise<number> {
  const [name, ...rest] = argv;
  const wantsJson = rest.includes('--json');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(helpText());
    return 0;
  }
  if (name === '--version' || name === '-v' || name === 'version') {
    io.stdout(wantsJson ? JSON.stringify({ version: VERSION }) : VERSION);
    return 0;
  }
  const load = commandLoader(name);
  let app: App | undefined;
  try {
    if (!load)
      throw new AgentctxError('usage', `unknown command ${JSON.stringify(name)}; run agentctx --help`);
    const command = await load();
    const args = parseArgs(rest, command.flags);
    if (bool(args.flags, 'help')) {
      io.stdout(`${command.summary}\n\nUsage: ${command.usage}`);
      return 0;
    }
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
  } catch (err) {
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
    return known ? 2 : 1;
  } finally {
    app?.close();
  }
}
