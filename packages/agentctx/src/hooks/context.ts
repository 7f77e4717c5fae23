import { existsSync } from 'node:fs';
import { type Paths, resolvePaths, sessionJournalPath, sessionStatePath } from '../app/paths.js';
import type { ProjectRef } from '../app/project.js';
import { resolveProject } from '../app/project.js';
import { readSessionState, type SessionState } from '../core/injection/session-state.js';
import type { Db } from '../database/open.js';
import { journalCwd } from '../files/session-journal.js';
import type { HookAgent } from '../shared/agents.js';
import type { Clock, IdGen } from '../shared/clock.js';
import { ulidFactory } from '../shared/ids.js';
import { openHookStore } from './store.js';

export type Env = Record<string, string | undefined>;

/**
 * What a hook handler works with: paths, clock, ids, the session's dedup state and journal,
 * the project the session is working in (after any CwdChanged), and the store, opened on
 * first use.
 */
export interface HookContext {
  env: Env;
  /** The agent whose hook this is: what it stores is marked with it, never what it does. */
  agent: HookAgent;
  paths: Paths;
  clock: Clock;
  newId: IdGen;
  statePath: string | null;
  state: SessionState;
  /** The session's journal file (stored data: tokens injected, cwd changes), or null without a session id. */
  journalPath: string | null;
  /** The session's working directory: its last CwdChanged (from the journal), else the payload's cwd. */
  cwd: string;
  project(): ProjectRef;
  /** Whether the store exists (read-only hooks do nothing without one). */
  hasStore(): boolean;
  db(): Db;
  close(): void;
}

export function createHookContext(
  env: Env,
  sessionId: string,
  payloadCwd: string,
  clock: Clock,
  agent: HookAgent = 'claude-code',
): HookContext {
  const paths = resolvePaths(env);
  const statePath = sessionId ? sessionStatePath(paths, sessionId) : null;
  const state = statePath ? readSessionState(statePath) : { injected: [] };
  const journalPath = sessionId ? sessionJournalPath(paths, sessionId) : null;
  const changed = journalPath ? journalCwd(journalPath, sessionId) : null;
  const cwd = changed && existsSync(changed) ? changed : payloadCwd;
  let project: ProjectRef | undefined;
  let db: Db | undefined;
  let newId: IdGen | undefined;
  return {
    env,
    agent,
    paths,
    clock,
    get newId() {
      newId ??= ulidFactory();
      return newId;
    },
    statePath,
    state,
    journalPath,
    cwd,
    project() {
      project ??= resolveProject(cwd);
      return project;
    },
    hasStore: () => db !== undefined || existsSync(paths.db),
    db() {
      db ??= openHookStore(paths.db);
      return db;
    },
    close() {
      // The process exits right after: closing would checkpoint the WAL, a cost the session
      // would wait for. SQLite recovers an unclosed WAL connection safely; writers checkpoint.
      db = undefined;
    },
  };
}
