import type { Clock, Db, IdGen, ProjectRef, RecordsDeps } from './core.js';

/** What the routes need: the open store, the project the dashboard was started in, the secret. */
export interface DashboardContext {
  db: Db;
  clock: Clock;
  newId: IdGen;
  /** The project of the folder `agentctx ui` ran in: the default, and the only one with a known root. */
  current: ProjectRef;
  reinforceThreshold: number;
  /** The redaction gate's redactor (built-in rules and the user's patterns) every edit passes. */
  redact: (text: string) => string;
  /** The start-up secret every request carries (`x-agentctx-token` header, or `?token=` on a read). */
  token: string;
  /** The port the server listens on (known only after listen when started on port 0). */
  port: () => number;
  /** The built single-page app (index.html and its assets). */
  webDir: string;
  /** Fold the session journals into the store, before session counts are read. */
  foldJournals?: () => void;
  /** `agentctx team import --yes` for the current project (the review queue's team-file answer). */
  teamImport?: () => Promise<unknown>;
}

/** Records services confined to one project's namespace (and `_global`), as the CLI uses them. */
export function recordsDeps(ctx: DashboardContext, projectId: string): RecordsDeps {
  return {
    db: ctx.db,
    clock: ctx.clock,
    newId: ctx.newId,
    projectId,
    reinforceThreshold: ctx.reinforceThreshold,
    redact: ctx.redact,
  };
}
