import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Paths {
  home: string;
  db: string;
  config: string;
  logs: string;
  digests: string;
  locks: string;
  profile: string;
  models: string;
  tmp: string;
}

type Env = Record<string, string | undefined>;

/** Where agentctx keeps its files: `AGENTCTX_HOME`, else `~/.agentctx` (HOME honoured). */
export function resolvePaths(env: Env = process.env): Paths {
  const home = env.AGENTCTX_HOME || join(env.HOME || homedir(), '.agentctx');
  return {
    home,
    db: join(home, 'agentctx.db'),
    config: join(home, 'config.json'),
    logs: join(home, 'logs'),
    digests: join(home, 'digests'),
    locks: join(home, 'locks'),
    profile: join(home, 'profile'),
    models: join(home, 'models'),
    tmp: env.AGENTCTX_TMPDIR || tmpdir(),
  };
}

/** The session dedup file of SPEC §4 (derived, disposable). */
export function sessionStatePath(paths: Paths, sessionId: string): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128) || 'unknown';
  return join(paths.tmp, `agentctx-${safe}.json`);
}
