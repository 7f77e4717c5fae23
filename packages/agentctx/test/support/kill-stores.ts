import { cpSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { isolatedEnv, runAgentctx } from './cli.js';

/**
 * What the kill tests (test/reliability/kill-*.test.ts) share: each run, killed or not, starts
 * from a copy of one seeded store in a home of its own, and consolidation runs to its end.
 */

/** A fresh agentctx home `<root>/<name>` holding a copy of the store `template`. */
export function homeWithStore(
  root: string,
  name: string,
  template: string,
  extraEnv: Record<string, string> = {},
): { env: NodeJS.ProcessEnv; db: string } {
  const h = join(root, name);
  mkdirSync(join(h, '.agentctx'), { recursive: true });
  const db = join(h, '.agentctx', 'agentctx.db');
  cpSync(template, db);
  return { env: isolatedEnv(h, extraEnv), db };
}

/**
 * A whole `consolidate --json` run: the time box (60 s by default) is lifted, else a slow machine
 * ends the reference run early and a rerun goes further than it (a time-boxed run is continued
 * by the next one, by design).
 */
export function consolidateToEnd<T = Record<string, unknown>>(repo: string, env: NodeJS.ProcessEnv): T {
  const r = runAgentctx(['consolidate', '--json', '--budget-ms', '900000'], {
    cwd: repo,
    env,
    timeoutMs: 900_000,
  });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return JSON.parse(r.stdout) as T;
}
