import { runCli } from './cli/main.js';

runCli(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(`agentctx: ${(err as Error)?.message ?? String(err)}\n`);
    process.exitCode = 1;
  },
);
