import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { monotonicFactory } from 'ulid';
import { resolvePaths, sessionJournalPath, sessionStatePath } from '../../../src/app/paths.js';
import { resolveProject } from '../../../src/app/project.js';
import { type CreateRecordInput, createRecord } from '../../../src/core/records/records.js';
import { type Db, openDb } from '../../../src/database/open.js';
import type { ContextRecord } from '../../../src/shared/types.js';
import { BIN, isolatedEnv, runAgentctx, spawnCollect } from '../../support/cli.js';
import { fakeRepo, tempDir } from '../../support/tmp.js';

/** A throwaway HOME with a git repository in it, and the environment hooks run with. */
export interface HookWorld {
  home: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  projectId: string;
  dbPath: string;
  cleanup: () => void;
  /** Open the store in this process (close it before hooks need it exclusively). */
  db: () => Db;
  closeDb: () => void;
  add: (
    input: Partial<CreateRecordInput> & { title: string; body: string },
    projectId?: string,
  ) => ContextRecord;
  statePath: (sessionId: string) => string;
  /** The session's journal (stored: tokens injected, cwd changes). */
  journalPath: (sessionId: string) => string;
}

export function hookWorld(origin = 'git@github.com:acme/shop.git', name = 'shop'): HookWorld {
  const tmp = tempDir('agentctx-hooks-');
  const home = tmp.path;
  mkdirSync(join(home, 'tmp'), { recursive: true });
  const repo = fakeRepo(home, name, origin);
  const env = isolatedEnv(home);
  const paths = resolvePaths(env as Record<string, string>);
  const projectId = resolveProject(repo).id;
  let db: Db | undefined;
  const newId = monotonicFactory();
  const world: HookWorld = {
    home,
    repo,
    env,
    projectId,
    dbPath: paths.db,
    cleanup: () => {
      db?.close();
      tmp.cleanup();
    },
    db: () => {
      db ??= openDb(paths.db);
      return db;
    },
    closeDb: () => {
      db?.close();
      db = undefined;
    },
    add: (input, pid = projectId) =>
      createRecord(
        { db: world.db(), clock: () => new Date(), newId, projectId: pid },
        { type: 'decision', source: 'cli', confidence: 'explicit', ...input },
      ),
    statePath: (sessionId) => sessionStatePath(paths, sessionId),
    journalPath: (sessionId) => sessionJournalPath(paths, sessionId),
  };
  return world;
}

export interface HookRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
  /** The parsed output, or null when stdout is empty. Throws if stdout is not one JSON object. */
  json: { hookSpecificOutput?: { hookEventName?: string; additionalContext?: string } } | null;
  context: string;
}

function parse(stdout: string): HookRun['json'] {
  if (stdout.trim() === '') return null;
  const v = JSON.parse(stdout) as unknown;
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new Error(`not a JSON object: ${stdout}`);
  return v as HookRun['json'];
}

/** Run `agentctx hook <event>` with a payload (object → JSON; string → as is). */
export function runHook(
  world: { env: NodeJS.ProcessEnv; repo: string },
  event: string,
  payload: unknown,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string; args?: string[] } = {},
): HookRun {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const t0 = Date.now();
  const res = runAgentctx(['hook', event, ...(opts.args ?? [])], {
    cwd: opts.cwd ?? world.repo,
    env: { ...world.env, ...opts.env },
    input,
  });
  const json = parse(res.stdout);
  return {
    ...res,
    ms: Date.now() - t0,
    json,
    context: json?.hookSpecificOutput?.additionalContext ?? '',
  };
}

/** The same, as a promise, so many can run at once. */
export async function runHookAsync(
  world: { env: NodeJS.ProcessEnv; repo: string },
  event: string,
  payload: unknown,
  args: string[] = [],
): Promise<{ code: number; stdout: string; stderr: string }> {
  const input = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const r = await spawnCollect(process.execPath, [BIN, 'hook', event, ...args], {
    cwd: world.repo,
    env: world.env,
    input,
    timeoutMs: 60_000,
  });
  return { ...r, code: r.code ?? -1 };
}

export function promptPayload(world: HookWorld, sessionId: string, prompt: string, cwd = world.repo) {
  return {
    session_id: sessionId,
    transcript_path: join(world.home, 'transcript.jsonl'),
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
  };
}

export function basePayload(
  world: HookWorld,
  sessionId: string,
  event: string,
  extra: Record<string, unknown> = {},
) {
  return {
    session_id: sessionId,
    transcript_path: join(world.home, 'transcript.jsonl'),
    cwd: world.repo,
    permission_mode: 'default',
    hook_event_name: event,
    ...extra,
  };
}
