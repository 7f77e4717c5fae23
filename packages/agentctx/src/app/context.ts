import { monotonicFactory } from 'ulid';
import type { RecordsDeps } from '../core/records/records.js';
import { type Redact, redactorFor } from '../core/redaction/redact.js';
import { type Clock, type IdGen, systemClock } from '../shared/clock.js';
import { type Db, openDb } from '../storage/open.js';
import { type Config, loadConfig } from './config.js';
import { type Paths, resolvePaths } from './paths.js';
import { type ProjectRef, resolveProject } from './project.js';

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
  /** The redaction gate's redactor: the built-in rules and the user's `redact.extraPatterns`. */
  readonly redact: Redact;
  records(): RecordsDeps;
  close(): void;
}

export function createApp(opts: AppOptions = {}): App {
  const env = opts.env ?? process.env;
  const paths = resolvePaths(env);
  const clock = opts.clock ?? systemClock;
  const newId = opts.newId ?? monotonicFactory();
  const project = resolveProject(opts.cwd ?? process.cwd());
  let db: Db | undefined;
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
      db ??= openDb(paths.db);
      return db;
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
      };
    },
    close() {
      db?.close();
      db = undefined;
    },
  };
  return app;
}
