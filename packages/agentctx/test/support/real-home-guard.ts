import { lstatSync, readdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join, relative } from 'node:path';

/**
 * Vitest global setup: the suite must never write to the real user's ~/.agentctx or
 * ~/.claude (tests use throwaway homes: support/cli.ts isolatedEnv, support/tmp.ts). The two
 * trees are listed (path, size, mtime) before the run and again after it; anything created,
 * changed or removed fails the run, naming the paths. The real home is the account's
 * (os.userInfo), whatever HOME says.
 *
 * Under ~/.claude, the folders Claude Code itself keeps while it runs (sessions' transcripts,
 * backups, telemetry, todos, shell snapshots…) are left out: the suite may be started from a
 * Claude Code session, which writes them meanwhile. What agentctx writes there (settings,
 * CLAUDE.md, agents, commands, plugins) is watched.
 */

const CLAUDE_RUNTIME = new Set([
  'projects',
  'backups',
  'telemetry',
  'todos',
  'statsig',
  'shell-snapshots',
  'session-env',
  'file-history',
  'debug',
  'ide',
  'logs',
  'cache',
  'history.jsonl',
  '.credentials.json',
]);

export type Snapshot = Map<string, string>;

function walk(root: string, dir: string, out: Snapshot, skipTop: ReadonlySet<string>): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // absent (or unreadable): nothing to compare under it
  }
  for (const name of names) {
    const path = join(dir, name);
    if (dir === root && skipTop.has(name)) continue;
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(path);
    } catch {
      continue;
    }
    out.set(relative(root, path) || '.', `${st.isDirectory() ? 'd' : st.size}:${Math.trunc(st.mtimeMs)}`);
    if (st.isDirectory()) walk(root, path, out, skipTop);
  }
}

export function snapshot(home: string): Snapshot {
  const out: Snapshot = new Map();
  for (const [name, skip] of [
    ['.agentctx', new Set<string>()],
    ['.claude', CLAUDE_RUNTIME],
  ] as const) {
    const root = join(home, name);
    const top = new Map<string, string>();
    try {
      const st = lstatSync(root);
      top.set(name, st.isDirectory() ? 'd' : `${st.size}:${Math.trunc(st.mtimeMs)}`);
    } catch {
      top.set(name, 'absent');
    }
    for (const [k, v] of top) out.set(k, v);
    const inner: Snapshot = new Map();
    walk(root, root, inner, skip);
    for (const [k, v] of inner) out.set(join(name, k), v);
  }
  return out;
}

/** What differs between two snapshots, as "created / changed / removed PATH" lines. */
export function changes(before: Snapshot, after: Snapshot): string[] {
  const out: string[] = [];
  for (const [k, v] of after) {
    if (!before.has(k)) out.push(`created ${k}`);
    else if (before.get(k) !== v && !v.startsWith('d:')) out.push(`changed ${k}`);
  }
  for (const k of before.keys()) if (!after.has(k)) out.push(`removed ${k}`);
  return out.sort();
}

/** The account's home; AGENTCTX_GUARD_REAL_HOME stands in for it when the guard itself is tested. */
export function realHome(): string {
  return process.env.AGENTCTX_GUARD_REAL_HOME || userInfo().homedir;
}

/** The complaint for a non-empty diff. */
export function complaint(home: string, diff: readonly string[]): string {
  return `the test run wrote to the real home (${home}); a test spawned agentctx or Claude Code without a throwaway HOME/AGENTCTX_HOME/CLAUDE_CONFIG_DIR (test/support/cli.ts isolatedEnv):\n  ${diff.slice(0, 40).join('\n  ')}`;
}

/**
 * Global setup: take the snapshot before any test runs and hand it to the workers, whose
 * setup file (real-home-check.ts) compares after every test file, so the file that wrote
 * (or one running beside it) fails by name. The teardown compares once more and fails the
 * run for what happened after the last file.
 */
export default function setup(project: { provide: (key: string, value: unknown) => void }): () => void {
  const home = realHome();
  const before = snapshot(home);
  project.provide('realHomeSnapshot', [...before]);
  return () => {
    const diff = changes(before, snapshot(home));
    if (diff.length > 0) {
      process.exitCode = 1;
      throw new Error(complaint(home, diff));
    }
  };
}
