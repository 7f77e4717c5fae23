import { appendLog } from './app/log.js';
import { resolvePaths } from './app/paths.js';
import { runHook } from './hooks/runner.js';

// `agentctx hook <event>`: whatever happens, exit 0 (a hook never breaks a session).
const fail = (err: unknown) => {
  appendLog(resolvePaths().logs, 'hooks', `uncaught: ${(err as Error)?.stack ?? String(err)}`);
  process.exit(0);
};
process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
runHook(process.argv[3]).then(
  () => process.exit(0),
  () => process.exit(0),
);
