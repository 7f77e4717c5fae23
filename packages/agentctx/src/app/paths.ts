import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Paths {
  home: string;
  db: string;
  config: string;
  logs: string;
  digests: string;
  /** Append-only session journals (stored data: injected tokens, working directory). */
  journal: string;
  /** Captures waiting for the store's write lock (files/capture-spool.ts). */
  spool: string;
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
    journal: join(home, 'journal'),
    spool: join(home, 'spool'),
    locks: join(home, 'locks'),
    profile: join(home, 'profile'),
    models: join(home, 'models'),
    tmp: env.AGENTCTX_TMPDIR || tmpdir(),
  };
}

/** A session id as a file name: characters other than [A-Za-z0-9_-] become '_'. */
function safeSessionName(sessionId: string): string {
  return sessionId.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 128) || 'unknown';
}

/** Names of the session dedup files (sessionStatePath), for `uninstall --purge` to find them. */
export const SESSION_STATE_FILE = /^agentctx-[A-Za-z0-9_-]{1,128}\.json$/;

/** The session dedup file of CONTRACTS.md §dedup (derived, disposable). */
export function sessionStatePath(paths: Paths, sessionId: string): string {
  return join(paths.tmp, `agentctx-${safeSessionName(sessionId)}.json`);
}

/**
 * The session's journal (stored, files/session-journal.ts). Two ids that map to one name
 * share a file harmlessly: every line names its session.
 */
export function sessionJournalPath(paths: Paths, sessionId: string): string {
  return join(paths.journal, `${safeSessionName(sessionId)}.jsonl`);
}
