import { spawn } from 'node:child_process';
import { appendFileSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mulberry32 } from '../../src/bench/prng.js';

/**
 * The fault suite's two modes. By default (`npm test`) every test runs small, seeded counts
 * so the whole folder stays within a few minutes on two busy cores. With
 * AGENTCTX_FAULTS_BENCH=1 (`npm run bench:faults`) the same tests run the larger counts and
 * append their figures, one JSON line each, to the file named by AGENTCTX_FAULTS_FIGURES;
 * src/bench/entries/faults.ts (`npm run bench:faults`) prints them. AGENTCTX_FAULTS_SEED replaces the default seed.
 */

export const BENCH = process.env.AGENTCTX_FAULTS_BENCH === '1' || process.env.AGENTCTX_FAULTS_SIZE === 'full';
/** The full sizes (`bench:faults --full`): 20,000 records, a 100 MB transcript, 20 kill points, 7,000 payloads. */
export const FULL = process.env.AGENTCTX_FAULTS_SIZE === 'full';
export const SEED = Number(process.env.AGENTCTX_FAULTS_SEED) || 20_240_611;

/**
 * One shard of a long generated run (AGENTCTX_FAULTS_SHARD=k/n, `bench:faults --shard k/n`):
 * case i belongs to shard (i mod n) + 1, so every shard gets the same mix. Null when unsharded.
 */
export const SHARD = parseShard(process.env.AGENTCTX_FAULTS_SHARD);

export function parseShard(v: string | undefined): { k: number; n: number } | null {
  const m = /^(\d+)\/(\d+)$/.exec(v ?? '');
  if (!m) return null;
  const k = Number(m[1]);
  const n = Number(m[2]);
  return n >= 1 && k >= 1 && k <= n ? { k, n } : null;
}

/** Whether case `i` of a generated run belongs to `shard` (every case, unsharded). */
export function shardOwns(i: number, shard: { k: number; n: number } | null): boolean {
  return shard === null || i % shard.n === shard.k - 1;
}

/** Whether case `i` of a generated run is this process's to try. */
export function inShard(i: number): boolean {
  return shardOwns(i, SHARD);
}

/** `small` in the default run, `large` in the bench run, `full` (default `large`) with `--full`. */
export function scale(small: number, large: number, full = large): number {
  return FULL ? full : BENCH ? large : small;
}

/** The benchmarks' seeded generator (mulberry32, src/bench/prng.ts): the same seed, the same sequence. */
export const seeded: (seed: number) => () => number = mulberry32;

export interface Figure {
  /** The section of docs/RELIABILITY.md it belongs to. */
  section: string;
  name: string;
  value: number | string;
  unit?: string;
}

/** Keep a measured figure (a no-op unless the bench runner asked for them). */
export function figure(section: string, name: string, value: number | string, unit?: string): void {
  const file = process.env.AGENTCTX_FAULTS_FIGURES;
  if (!file) return;
  const f: Figure = { section, name, value, ...(unit ? { unit } : {}) };
  appendFileSync(file, `${JSON.stringify(f)}\n`);
}

/**
 * A figure of the run's summary: numbers under the same name are added up across tests by
 * src/bench/entries/faults.ts (`npm run bench:faults`) (faults survived, inputs tried, writes lost, …).
 */
export function total(name: string, value: number | string): void {
  figure('Summary', name, value);
}

/** The largest of `values` (0 for none). */
export function maxOf(values: readonly number[]): number {
  return values.reduce((m, v) => Math.max(m, v), 0);
}

/** The `p`th percentile (0–100) of `values`, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/**
 * Start `args` of the built CLI and SIGKILL it `afterMs` after the start (unless it ended
 * first). `killed` says whether the kill landed on a live process.
 */
export async function killAfter(
  args: readonly string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; afterMs: number; bin: string },
): Promise<{ killed: boolean; code: number | null; ms: number }> {
  const t0 = Date.now();
  const child = spawn(process.execPath, [opts.bin, ...args], {
    cwd: opts.cwd,
    env: opts.env,
    stdio: 'ignore',
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  const timer = setTimeout(() => child.kill('SIGKILL'), opts.afterMs);
  const end = await exited;
  clearTimeout(timer);
  return { killed: end.signal === 'SIGKILL', code: end.code, ms: Date.now() - t0 };
}

/**
 * The kill loop the kill -9 tests share: `kills` seeded points between 100 ms after the start
 * and just before the end of a run as long as the reference run (`referenceMs`). A run that
 * ended before its kill (the machine was faster this time) is tried again on a fresh copy,
 * earlier. `check` then looks at the killed copy. Returns the kill points, in ms after start.
 */
export async function killLoop<W>(opts: {
  kills: number;
  seed: number;
  referenceMs: number;
  bin: string;
  fresh: (name: string) => W;
  run: (w: W) => { args: readonly string[]; cwd: string; env: NodeJS.ProcessEnv };
  check: (w: W, label: string) => Promise<void> | void;
  /** Where the window starts, as a share of the reference run (default 0). */
  from?: number;
  /** Where it ends, as a share of the reference run (default 0.95). */
  until?: number;
}): Promise<number[]> {
  const rand = seeded(opts.seed);
  const points: number[] = [];
  const start = Math.max(100, (opts.from ?? 0) * opts.referenceMs);
  const end = (opts.until ?? 0.95) * opts.referenceMs;
  for (let k = 0; k < opts.kills; k++) {
    let afterMs = Math.round(start + rand() * Math.max(100, end - start));
    let w = opts.fresh(`kill-${k}`);
    for (let attempt = 0; ; attempt++) {
      const r = opts.run(w);
      const kill = await killAfter(r.args, { cwd: r.cwd, env: r.env, afterMs, bin: opts.bin });
      if (kill.killed) break;
      if (attempt >= 8) throw new Error(`kill ${k}: the run always ended before ${afterMs} ms`);
      afterMs = Math.max(50, Math.round(afterMs * 0.6));
      w = opts.fresh(`kill-${k}-${attempt}`);
    }
    points.push(afterMs);
    await opts.check(w, `kill ${k} at ${afterMs} ms`);
  }
  return points.sort((a, b) => a - b);
}

/** Lock files under `locksDir` whose holder was never written (a kill between open and write). */
export function tornLocks(locksDir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(locksDir).filter((n) => n.endsWith('.lock'));
  } catch {
    return [];
  }
  return names.filter((n) => {
    try {
      const held = JSON.parse(readFileSync(join(locksDir, n), 'utf8')) as {
        pid?: unknown;
        released?: unknown;
      };
      // a released generation (app/lock.ts) names no holder and is not torn
      return held.released !== true && typeof held.pid !== 'number';
    } catch {
      return true;
    }
  });
}

/**
 * Run `attempt`; when it skipped because a lock is held and that lock is one a kill tore (its
 * holder never written), wait out the 10 s such a lock counts as held (app/lock.ts) and run it
 * again. A skip for any other lock is returned as it is, for the test to fail on.
 */
export async function rerunPastTornLock<T>(
  attempt: () => T | Promise<T>,
  skipped: (r: T) => boolean,
  locksDir: string,
): Promise<{ result: T; waited: boolean }> {
  const first = await attempt();
  if (!skipped(first) || tornLocks(locksDir).length === 0) return { result: first, waited: false };
  await new Promise((r) => setTimeout(r, 10_500));
  return { result: await attempt(), waited: true };
}
