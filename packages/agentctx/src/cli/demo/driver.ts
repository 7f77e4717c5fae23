import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createApp } from '../../app/context.js';
import { installedBinPath } from '../../app/detached.js';
import { GLOBAL_PROJECT } from '../../shared/types.js';

/**
 * How the demo plays Claude Code: it runs the installed `agentctx hook <event>` processes with
 * the payloads Claude Code sends on stdin, reads what they print, and waits for the background
 * jobs they start (extract, consolidate) before the next step — all against a throwaway home.
 */

export interface DemoWorld {
  /** The throwaway folder holding everything below. */
  dir: string;
  /** AGENTCTX_HOME of the demo. */
  home: string;
  /** The sample repository (the project). */
  repo: string;
  /** Where the session transcripts are written (a stand-in for ~/.claude/projects/…). */
  transcripts: string;
  /** The environment every agentctx process of the demo gets. */
  env: Record<string, string | undefined>;
  /** The bin script of this install. */
  bin: string;
}

/** Variables of the caller's environment the demo never passes on. */
const DROPPED = /^(ANTHROPIC_|CLAUDE_|AGENTCTX_|CLAUDECODE$|NODE_OPTIONS$)/;

/** The demo's environment: the caller's, minus keys and agentctx settings, pointed at `dir`. */
function demoEnv(
  dir: string,
  parent: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(parent)) if (!DROPPED.test(k)) env[k] = v;
  return {
    ...env,
    HOME: dir,
    AGENTCTX_HOME: join(dir, 'home'),
    AGENTCTX_TMPDIR: join(dir, 'tmp'),
    CLAUDE_CONFIG_DIR: join(dir, 'claude'),
    GIT_CONFIG_NOSYSTEM: '1',
  };
}

export function makeWorld(
  dir: string,
  parent: Record<string, string | undefined>,
  repoName: string,
): DemoWorld {
  return {
    dir,
    home: join(dir, 'home'),
    repo: join(dir, repoName),
    transcripts: join(dir, 'claude', 'projects', repoName),
    env: demoEnv(dir, parent),
    bin: installedBinPath(),
  };
}

export interface HookRun {
  /** What the hook gave Claude Code to add to its context, if anything. */
  context: string | null;
  /** Background jobs it started: `agentctx <command>` and its pid. */
  spawned: { command: string; pid: number }[];
  ms: number;
}

function hooksLogSize(world: DemoWorld): number {
  try {
    return statSync(join(world.home, 'logs', 'hooks.log')).size;
  } catch {
    return 0;
  }
}

function spawnedSince(world: DemoWorld, offset: number): { command: string; pid: number }[] {
  const file = join(world.home, 'logs', 'hooks.log');
  if (!existsSync(file)) return [];
  const text = readFileSync(file).subarray(offset).toString('utf8');
  return [...text.matchAll(/spawned agentctx (\S+) pid=(\d+)/g)].map((m) => ({
    command: m[1] ?? '',
    pid: Number(m[2]),
  }));
}

/** Run `agentctx hook <event>` with `payload` on stdin, as Claude Code does. */
export function runHook(world: DemoWorld, event: string, payload: Record<string, unknown>): HookRun {
  const before = hooksLogSize(world);
  const started = performance.now();
  const res = spawnSync(process.execPath, [world.bin, 'hook', event], {
    cwd: world.repo,
    env: { ...world.env, CLAUDE_PROJECT_DIR: world.repo },
    input: JSON.stringify(payload),
    encoding: 'utf8',
    timeout: 30_000,
  });
  const ms = Math.round(performance.now() - started);
  if (res.error) throw new Error(`the ${event} hook could not run: ${res.error.message}`);
  if (res.status !== 0) throw new Error(`the ${event} hook exited ${res.status}: ${res.stderr}`);
  let context: string | null = null;
  const out = (res.stdout ?? '').trim();
  if (out) {
    const parsed = JSON.parse(out) as { hookSpecificOutput?: { additionalContext?: unknown } };
    const c = parsed.hookSpecificOutput?.additionalContext;
    context = typeof c === 'string' ? c : null;
  }
  return { context, spawned: spawnedSince(world, before), ms };
}

/** Whether a process runs (a zombie counts as ended). */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
  } catch {
    return true; // no /proc: signal 0 is all there is
  }
}

/** Wait for background jobs to end; the pids still running after `timeoutMs`. */
export async function waitFor(pids: readonly number[], timeoutMs: number): Promise<number[]> {
  const until = Date.now() + timeoutMs;
  let left = pids.filter(running);
  while (left.length > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 40));
    left = left.filter(running);
  }
  return left;
}

export interface StoredRecord {
  id: string;
  type: string;
  scope: string;
  confidence: string;
  source: string;
  title: string;
}

/** The current records of the sample project and the global profile, oldest first. */
export function storedRecords(world: DemoWorld): StoredRecord[] {
  if (!existsSync(join(world.home, 'agentctx.db'))) return [];
  const app = createApp({ cwd: world.repo, env: world.env });
  try {
    return app.readDb
      .prepare(
        `SELECT id, type, scope, confidence, source, title FROM records
         WHERE project_id IN (?, ?) AND superseded_at IS NULL ORDER BY recorded_at, id`,
      )
      .all(app.project.id, GLOBAL_PROJECT) as StoredRecord[];
  } finally {
    app.close();
  }
}
