import { spawn } from 'node:child_process';
import { findOnPath } from '../files/find-on-path.js';

type Env = Record<string, string | undefined>;

/**
 * A short conversation with Codex's own app server (`codex app-server`, JSON-RPC, one JSON
 * object a line over stdio): the interface Codex's "Trust all" goes through. agentctx asks it
 * which hooks exist, their keys, hashes and trust (`hooks/list`), and records trust with
 * `config/batchWrite`, so the trust record is the one Codex itself writes and checks.
 */

/** One hook as `hooks/list` reports it (the fields agentctx reads). */
export interface CodexHookEntry {
  key: string;
  eventName: string;
  command?: string;
  currentHash: string;
  trustStatus: 'managed' | 'untrusted' | 'trusted' | 'modified';
  enabled: boolean;
  sourcePath: string;
  /** The plugin holding the hook (`agentctx@agentctx`), for a plugin's hooks. */
  pluginId?: string | null;
}

/** The `codex` executable on PATH, or null. */
export function findCodexCli(env: Env): string | null {
  return findOnPath('codex', env);
}

interface AppServer {
  request(method: string, params: unknown): Promise<Record<string, unknown>>;
  close(): void;
}

/** Start `codex app-server` and initialize it. Rejects when it cannot start or answer in time. */
export async function openAppServer(
  codex: string,
  opts: { env: Env; cwd: string; timeoutMs?: number },
): Promise<AppServer> {
  const child = spawn(codex, ['app-server'], {
    cwd: opts.cwd,
    env: opts.env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const waiting = new Map<
    number,
    { resolve: (v: Record<string, unknown>) => void; reject: (e: Error) => void }
  >();
  let failure: Error | null = null;
  const failAll = (err: Error) => {
    failure ??= err;
    for (const w of waiting.values()) w.reject(failure);
    waiting.clear();
  };
  child.on('error', (err) => failAll(err));
  child.on('exit', (code) => failAll(new Error(`codex app-server exited (${code})`)));
  child.stdin.on('error', () => {});
  let buf = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    buf += chunk;
    for (let nl = buf.indexOf('\n'); nl >= 0; nl = buf.indexOf('\n')) {
      const line = buf.slice(0, nl);
      buf = buf.slice(nl + 1);
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line) as Record<string, unknown>;
      } catch {
        continue;
      }
      if (typeof msg.id !== 'number') continue; // notifications
      const w = waiting.get(msg.id);
      if (!w) continue;
      waiting.delete(msg.id);
      if (msg.error) {
        const e = msg.error as { message?: string };
        w.reject(new Error(`codex app-server: ${e.message ?? JSON.stringify(msg.error)}`));
      } else w.resolve((msg.result ?? {}) as Record<string, unknown>);
    }
  });
  let next = 0;
  const request = (method: string, params: unknown) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      if (failure) return reject(failure);
      const id = ++next;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`codex app-server did not answer ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(id, {
        resolve: (v) => {
          clearTimeout(timer);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      });
      child.stdin.write(`${JSON.stringify({ id, method, params })}\n`);
    });
  const close = () => {
    child.stdin.end();
    if (child.exitCode === null) child.kill('SIGTERM');
  };
  try {
    await request('initialize', { clientInfo: { name: 'agentctx', version: '0' } });
    child.stdin.write(`${JSON.stringify({ method: 'initialized' })}\n`);
  } catch (err) {
    close();
    throw err;
  }
  return { request, close };
}

/** The hooks Codex sees for `cwd`, with their trust. */
export async function listHooks(server: AppServer, cwd: string): Promise<CodexHookEntry[]> {
  return (await listHooksWithWarnings(server, cwd)).hooks;
}

/** The same, with what Codex could not load (a hooks.json it cannot parse, a bad matcher). */
export async function listHooksWithWarnings(
  server: AppServer,
  cwd: string,
): Promise<{ hooks: CodexHookEntry[]; warnings: string[] }> {
  const res = await server.request('hooks/list', { cwds: [cwd] });
  const data = Array.isArray(res.data) ? (res.data as Record<string, unknown>[]) : [];
  const hooks = data.flatMap((d) => (Array.isArray(d.hooks) ? (d.hooks as CodexHookEntry[]) : []));
  const warnings = data.flatMap((d) => [
    ...(Array.isArray(d.warnings) ? d.warnings.map(String) : []),
    ...(Array.isArray(d.errors)
      ? (d.errors as { message?: string; path?: string }[]).map((e) => `${e.path ?? ''}: ${e.message ?? ''}`)
      : []),
  ]);
  return { hooks, warnings };
}

/** Record trust for these hooks (their current hashes) through Codex's own config writer. */
export async function trustHooks(server: AppServer, entries: readonly CodexHookEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const value = Object.fromEntries(entries.map((e) => [e.key, { trusted_hash: e.currentHash }]));
  await server.request('config/batchWrite', {
    edits: [{ keyPath: 'hooks.state', value, mergeStrategy: 'upsert' }],
    reloadUserConfig: false,
  });
}
