import type { RecordsDeps } from '../core/records/records.js';
import { type Redact, redactorFor } from '../core/redaction/redact.js';
import { type Db, needsWrite, openDb, snapshotReason } from '../database/open.js';
import { isHookAgent } from '../shared/agents.js';
import { type Clock, type IdGen, systemClock } from '../shared/clock.js';
import { AgentctxError, errorMessage } from '../shared/errors.js';
import { ulidFactory } from '../shared/ids.js';
import { type Config, loadConfig } from './config.js';
import { type Paths, resolvePaths } from './paths.js';
import { type ProjectRef, resolveProject } from './project.js';
import { adoptWorktreeProjects } from './worktree-adopt.js';

export type Env = Record<string, string | undefined>;

export interface AppOptions {
  cwd?: string;
  env?: Env;
  clock?: Clock;
  newId?: IdGen;
}

/**
 * The composition root: the one place that reads the environment and config, opens the store
 * and hands services what they need.
 */
export interface App {
  env: Env;
  paths: Paths;
  clock: Clock;
  newId: IdGen;
  project: ProjectRef;
  readonly config: Config;
  readonly db: Db;
  /**
   * For commands that only read: the store, or when it cannot be opened for lack of a write
   * (a full disk, a read-only home), a read-only snapshot of it (database/connection.ts).
   */
  readonly readDb: Db;
  /** The redaction gate's redactor: the built-in rules and the user's `redact.extraPatterns`. */
  readonly redact: Redact;
  records(): RecordsDeps;
  close(): void;
}

/** Open the store for reading and writing; a file system refusing writes is said plainly. */
function openStore(path: string): Db {
  try {
    return openDb(path);
  } catch (err) {
    if (!needsWrite(err)) throw err;
    throw new AgentctxError(
      'store_unwritable',
      `cannot open the store ${path} for writing (${errorMessage(err)}): is the disk full or the folder read-only?`,
    );
  }
}

export function createApp(opts: AppOptions = {}): App {
  const env = opts.env ?? process.env;
  const paths = resolvePaths(env);
  const clock = opts.clock ?? systemClock;
  const newId = opts.newId ?? ulidFactory();
  const project = resolveProject(opts.cwd ?? process.cwd());
  let db: Db | undefined;
  let snapshot: Db | undefined;
  let config: Config | undefined;
  let redact: Redact | undefined;
  const app: App = {
    env,
    paths,
    clock,
    newId,
    project,
    get config() {
      config ??= loadConfig(paths.config);
      return config;
    },
    get db() {
      if (!db) {
        db = openStore(paths.db);
        adoptWorktreeProjects(db, project, paths, clock());
      }
      return db;
    },
    get readDb() {
      if (!db && !snapshot) {
        const opened = openDb(paths.db, { readFallback: true });
        if (snapshotReason(opened)) snapshot = opened;
        else {
          db = opened;
          adoptWorktreeProjects(db, project, paths, clock());
        }
      }
      return db ?? (snapshot as Db);
    },
    get redact() {
      // invalid user patterns are skipped here and reported by `agentctx config`
      redact ??= redactorFor(app.config.redact?.extraPatterns).redact;
      return redact;
    },
    records() {
      return {
        db: app.db,
        clock,
        newId,
        projectId: project.id,
        reinforceThreshold: app.config.reinforceThreshold,
        redact: app.redact,
        // provenance: an agent's MCP server is started with AGENTCTX_AGENT (Codex's config.toml)
        ...(isHookAgent(app.env.AGENTCTX_AGENT) ? { agent: app.env.AGENTCTX_AGENT } : {}),
      };
    },
    close() {
      db?.close();
      db = undefined;
      snapshot?.close();
      snapshot = undefined;
    },
  };
  return app;
}
