import { fstatSync, read, readSync, writeSync } from 'node:fs';
import { incognitoHook } from '../app/incognito.js';
import { appendLog } from '../app/log.js';
import { resolvePaths } from '../app/paths.js';
import { type HookAgent, hookAgentOf } from '../shared/agents.js';
import { type Clock, systemClock } from '../shared/clock.js';
import { HOOK_ADAPTERS } from './agents/index.js';
import { createHookContext, type Env, type HookContext } from './context.js';
import { type HookEvent, type HookName, parsePayload } from './event.js';
import type { HookResult } from './handlers/index.js';

/**
 * The hook runner: read stdin, parse it into a typed event, dispatch, and always exit 0 with
 * either nothing or one valid hook JSON object on stdout. Errors go to `<logs>/hooks.log`,
 * never into the session. `AGENTCTX_DISABLE=1` makes every hook a no-op.
 */

/** Bytes of stdin kept; anything beyond is read and dropped (a payload that big is not ours). */
const MAX_STDIN_BYTES = 8 * 1024 * 1024;
/** Stop waiting for stdin after this long (Claude Code closes it right after writing). */
const STDIN_WAIT_MS = 5000;

export function isDisabled(env: Env): boolean {
  const v = env.AGENTCTX_DISABLE;
  return v !== undefined && v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/**
 * Read all of stdin from its file descriptor: `process.stdin` would load the net and stream
 * modules, a few milliseconds on every hook start. Claude Code hands a hook a pipe or socket
 * it writes the payload to and closes, so that is read synchronously, without starting
 * libuv's thread pool; a terminal, or a descriptor that would block, is read asynchronously
 * and given up on after STDIN_WAIT_MS.
 */
function readStdin(fd = 0): Promise<string> {
  const chunks: Buffer[] = [];
  const state = { size: 0 };
  let kind: 'sync' | 'async' = 'async';
  try {
    kind = fstatSync(fd).isCharacterDevice() ? 'async' : 'sync';
  } catch {
    return Promise.resolve('');
  }
  const buf = Buffer.allocUnsafe(64 * 1024);
  if (kind === 'sync') {
    try {
      for (;;) {
        const n = readSync(fd, buf, 0, buf.length, null);
        if (n === 0) return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
        keep(chunks, state, buf, n);
      }
    } catch (err) {
      // EAGAIN: a non-blocking descriptor with nothing yet; wait for the rest below
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN')
        return Promise.resolve(Buffer.concat(chunks).toString('utf8'));
    }
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('utf8'));
    };
    const timer = setTimeout(finish, STDIN_WAIT_MS);
    timer.unref();
    const next = () => {
      read(fd, buf, 0, buf.length, null, (err, n) => {
        if (done) return;
        if (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') setTimeout(next, 5).unref();
          else finish();
          return;
        }
        if (n === 0) return finish();
        keep(chunks, state, buf, n);
        next();
      });
    };
    next();
  });
}

/** Keep a chunk while under MAX_STDIN_BYTES; past it, bytes are read and dropped. */
function keep(chunks: Buffer[], state: { size: number }, buf: Buffer, n: number): void {
  if (state.size < MAX_STDIN_BYTES) chunks.push(Buffer.from(buf.subarray(0, n)));
  state.size += n;
}

/** One event's handler. */
export type Handler<K extends HookName> = (
  event: Extract<HookEvent, { kind: K }>,
  ctx: HookContext,
) => HookResult | Promise<HookResult>;

export interface RunOptions {
  env?: Env;
  clock?: Clock;
  /** File descriptor to read the payload from (0). */
  stdinFd?: number;
  write?: (text: string) => Promise<void>;
  /** The agent asking (else from the command line's `--agent`, else `AGENTCTX_AGENT`). */
  agent?: HookAgent;
}

/** Write the whole output to fd 1 synchronously (no stream modules on the hook path). */
function writeStdout(text: string): Promise<void> {
  const data = Buffer.from(text, 'utf8');
  let off = 0;
  let spins = 0;
  while (off < data.length && spins < 1000) {
    try {
      off += writeSync(1, data, off);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') break;
      spins++;
    }
  }
  return Promise.resolve();
}

/**
 * Run one hook with its handler; resolves when done, never rejects. Each event's bundle
 * (dist/hook-<event>.cjs) calls this with its own handler only; dist/hook.cjs goes through
 * `runHook` (hooks/by-name.ts), which knows them all.
 */
export async function runHandler<K extends HookName>(
  name: K,
  handler: Handler<K>,
  opts: RunOptions = {},
): Promise<void> {
  const env = opts.env ?? process.env;
  if (isDisabled(env)) return;
  let ctx: HookContext | undefined;
  try {
    const agent = opts.agent ?? hookAgentOf(process.argv.slice(3), env);
    const adapter = HOOK_ADAPTERS[agent];
    const raw = await readStdin(opts.stdinFd);
    // the agent's field names and environment become the one typed event the handlers take
    const event = adapter.toEvent(name, parsePayload(raw), env, process.cwd());
    // an incognito session: nothing captured, nothing injected (app/incognito.ts)
    if (incognitoHook(resolvePaths(env), event, (opts.clock ?? systemClock)())) return;
    ctx = createHookContext(env, event.sessionId, event.cwd, opts.clock ?? systemClock, agent);
    const result = await handler(event as Extract<HookEvent, { kind: K }>, ctx);
    const out = adapter.render(name, result);
    if (out) await (opts.write ?? writeStdout)(out);
  } catch (err) {
    appendLog(resolvePaths(env).logs, 'hooks', `${name}: ${(err as Error)?.stack ?? String(err)}`);
  } finally {
    ctx?.close();
  }
}

/**
 * The process around a hook: whatever happens, exit 0 (a hook never breaks a session), with
 * anything uncaught logged.
 */
export function startHook(run: () => Promise<void>): void {
  const fail = (err: unknown) => {
    appendLog(resolvePaths().logs, 'hooks', `uncaught: ${(err as Error)?.stack ?? String(err)}`);
    process.exit(0);
  };
  process.on('uncaughtException', fail);
  process.on('unhandledRejection', fail);
  run().then(
    () => process.exit(0),
    () => process.exit(0),
  );
}
