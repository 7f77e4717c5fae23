import { appendLog } from '../app/log.js';
import { resolvePaths } from '../app/paths.js';
import type { Env } from './context.js';
import { isHookName } from './event.js';
import { HANDLERS } from './handlers/index.js';
import { isDisabled, type RunOptions, runHandler } from './runner.js';

/** Run the hook named on the command line (any of them; an unknown name is logged, nothing done). */
export async function runHook(rawName: string | undefined, opts: RunOptions = {}): Promise<void> {
  const env: Env = opts.env ?? process.env;
  if (isDisabled(env)) return;
  if (!isHookName(rawName)) {
    appendLog(resolvePaths(env).logs, 'hooks', `unknown hook ${JSON.stringify(rawName ?? '')}: nothing done`);
    return;
  }
  // the name picks its own handler; TypeScript cannot correlate the two through the union
  return runHandler(rawName, HANDLERS[rawName] as never, opts);
}
