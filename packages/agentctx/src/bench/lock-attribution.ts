// What each long write-lock wait of the scale benchmark's probe overlapped (issue 20): the holds
// logged by scripts/lock-holds.cjs (every process of the run, monotonic-clock times) against the
// probe's waits (bench:scale --hold-log FILE writes them to FILE.waits.jsonl). A wait is
//   - "holder preempted" when a single hold inside it lasted ≥ LONG ms and its holder sat
//     runnable but unscheduled (run-queue delay, from /proc/thread-self/schedstat) for at least
//     half of it; "long hold" when that hold was work (its function or its COMMIT);
//   - "waiter starved" when the probe's own thread sat in the run queue for half the wait;
//   - "back to back" otherwise: only short holds, the lock free between them for gaps shorter
//     than SQLite's busy-handler sleeps (1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100 ms…), so
//     the sleeping waiter keeps waking inside the next hold; "overslept" when one short hold
//     was all, the waiter still asleep in its handler long after the lock was let go.
import { readFileSync } from 'node:fs';
import { f1 } from './proc.js';

const LONG = 50;
const SLEEPS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/** One wait of the probe: when it began (monotonic ms), how long, its run-queue delay, timer drift. */
export interface Wait {
  t: number;
  ms: number;
  runDelay?: number;
  drift?: number;
}
/** One hold as lock-holds.cjs logs it. */
interface Hold {
  kind: string;
  t: number;
  got?: number;
  end: number;
  body?: number;
  commit?: number;
  ckpt?: number;
  cpu?: number;
  rq?: number;
  proc?: string;
  pid: number;
  at?: string;
  sql?: string;
  span?: [number, number];
  early?: boolean;
}

/** Cumulative sleep of SQLite's default busy handler after n tries (its waits land just past these). */
function busyTotals(upTo: number): number[] {
  const out: number[] = [];
  let t = 0;
  for (let i = 0; t < upTo; i++) {
    t += SLEEPS[Math.min(i, SLEEPS.length - 1)] as number;
    out.push(t);
  }
  return out;
}

/** The JSON lines of a file (a hold log, a waits file). */
export const readJsonl = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as unknown);

/**
 * The interval each hold kept the write lock: from the lock taken (or the call, when unknown) to
 * the end of its COMMIT, or to the first time another connection took the lock during that
 * COMMIT. A long COMMIT is mostly an automatic WAL checkpoint, which runs after the lock is let
 * go: other connections are seen taking the lock during nearly every COMMIT of 20 ms or more.
 */
function withSpans(waits: readonly Wait[], holds: Hold[]): Hold[] {
  const taken = lockTakings(waits, holds).sort((x, y) => x.at - y.at);
  const firstAfter = (t: number, pid: number) => {
    let lo = 0;
    let hi = taken.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((taken[mid] as { at: number }).at <= t) lo = mid + 1;
      else hi = mid;
    }
    for (let k = lo; k < taken.length; k++) {
      const x = taken[k] as { at: number; pid: number };
      if (x.pid !== pid) return x.at;
    }
    return Number.POSITIVE_INFINITY;
  };
  for (const h of holds) {
    const from = h.got ?? h.t;
    const c0 = h.body !== undefined && h.got !== undefined ? h.got + h.body : h.end;
    h.span = [from, Math.min(h.end, Math.max(c0, firstAfter(c0, h.pid)))];
    h.early = h.span[1] < h.end; // let go before its COMMIT returned
  }
  return holds;
}
const lockTakings = (waits: readonly Wait[], holds: readonly Hold[]) => [
  ...waits.map((w) => ({ at: w.t + w.ms, pid: 0 })),
  ...holds.filter((h) => h.got !== undefined).map((h) => ({ at: h.got as number, pid: h.pid })),
];
const span = (h: Hold): [number, number] => h.span ?? [h.got ?? h.t, h.end];
/** A short name for a hold's holder: its process and its nearest named callers. */
function holder(h: Hold): string {
  const at = (h.at ?? '').split(' < ').filter((n) => !/^(writeInSlices|note|where|timed)$/.test(n));
  return `${h.proc || '?'}${at.length ? `: ${at.slice(0, 2).join(' < ')}` : ''}${h.sql ? ` (${h.sql.slice(0, 40)})` : ''}`;
}

/** One wait's overlapping holds and its class. */
function attributeWait(w: Wait, holds: readonly Hold[]) {
  const a = w.t;
  const b = w.t + w.ms;
  const over = holds
    .map((h) => ({ h, s: span(h) }))
    .filter(({ s }) => s[1] > a && s[0] < b)
    .sort((x, y) => x.s[0] - y.s[0]);
  let longest: (typeof over)[number] | null = null;
  for (const o of over) if (!longest || o.s[1] - o.s[0] > longest.s[1] - longest.s[0]) longest = o;
  // the lock's free stretches inside the wait
  let covered = 0;
  let maxGap = 0;
  let cursor = a;
  let gaps = 0;
  for (const { s } of over) {
    const from = Math.max(s[0], cursor);
    if (from > cursor) {
      gaps++;
      maxGap = Math.max(maxGap, from - cursor);
    }
    if (s[1] > from) covered += Math.min(s[1], b) - from;
    cursor = Math.max(cursor, s[1]);
  }
  // from the last hold's end to the wait's end: the waiter still asleep in its busy handler
  const tail = Math.max(0, b - cursor);
  const longMs = longest ? longest.s[1] - longest.s[0] : 0;
  const preempted = longest !== null && (longest.h.rq ?? 0) >= longMs / 2;
  const kind =
    longMs >= LONG
      ? preempted
        ? 'holder preempted'
        : 'long hold'
      : (w.runDelay ?? 0) >= w.ms / 2
        ? 'waiter starved'
        : over.length > 1
          ? 'back to back'
          : over.length
            ? 'overslept'
            : 'none';
  const totals = busyTotals(w.ms + 200);
  const nearest = totals.reduce(
    (n, x) => (Math.abs(x - w.ms) < Math.abs(n - w.ms) ? x : n),
    totals[0] as number,
  );
  const l = longest?.h;
  return {
    kind,
    ms: w.ms,
    holds: over.length,
    longest: l
      ? { ms: longMs, by: holder(l), body: l.body, commit: l.commit, ckpt: l.ckpt, cpu: l.cpu, rq: l.rq }
      : null,
    holders: [...new Set(over.map((o) => holder(o.h)))],
    coverage: covered / w.ms,
    maxGap,
    gaps,
    tail,
    runDelay: w.runDelay,
    drift: w.drift,
    busyTotal: nearest,
  };
}

/** The attribution line (and one line per long wait) for the probe's waits over `over` ms. */
export function attribution(waits: readonly Wait[], holdLines: readonly unknown[], over = LONG): string[] {
  const holds = withSpans(waits, holdLines as Hold[]);
  const long = waits.filter((w) => w.ms > over).map((w) => attributeWait(w, holds));
  const count = (k: string) => long.filter((x) => x.kind === k).length;
  const longHolds = holds.filter((h) => span(h)[1] - span(h)[0] >= over);
  // clocks check: no one else can take the lock inside a hold's function
  const taken = lockTakings(waits, holds);
  const clash = holds.filter(
    (h) =>
      /^tx:(immediate|exclusive)/.test(h.kind) &&
      h.body !== undefined &&
      h.got !== undefined &&
      taken.some(
        (x) =>
          x.pid !== h.pid &&
          x.at > (h.got as number) + 0.3 &&
          x.at < (h.got as number) + (h.body as number) - 0.3,
      ),
  ).length;
  const ckpts = holds.filter((h) => h.ckpt);
  const early = holds.filter((h) => h.early);
  const commits = ckpts.map((h) => h.commit ?? Number.NaN).sort((x, y) => x - y);
  const lines = [
    `waits > ${over} ms: ${long.length} of ${waits.length}; a hold ≥ ${LONG} ms inside whose holder sat in the run queue ≥ half of it: ${count('holder preempted')}, a hold ≥ ${LONG} ms of work: ${count('long hold')}, the waiter itself in the run queue ≥ half the wait: ${count('waiter starved')}, back-to-back short holds: ${count('back to back')}, one short hold, overslept: ${count('overslept')}, no hold logged: ${count('none')}; holds ≥ ${over} ms in the whole run: ${longHolds.length}${longHolds.length ? ` (${[...new Set(longHolds.map(holder))].slice(0, 4).join('; ')})` : ''}; COMMITs running a checkpoint: ${ckpts.length} (median ${f1(commits[ckpts.length >> 1])} ms); COMMITs during which another took the lock: ${early.length}; locks taken by another inside a hold (clock check, should be 0): ${clash}`,
  ];
  for (const x of long)
    lines.push(
      `  ${f1(x.ms)} ms [${x.kind}]: ${x.holds} holds, longest ${f1(x.longest?.ms)} ms by ${x.longest?.by ?? '-'} (its function ${f1(x.longest?.body)} ms, commit ${f1(x.longest?.commit)} ms${x.longest?.ckpt ? ` with a checkpoint of ${x.longest.ckpt} frames` : ''}, cpu ${f1(x.longest?.cpu)} ms, run-queue ${f1(x.longest?.rq)} ms); lock held ${(x.coverage * 100).toFixed(0)}% of the wait, ${x.gaps} free gaps, widest ${f1(x.maxGap)} ms, free ${f1(x.tail)} ms at the end; run-queue delay ${f1(x.runDelay)} ms, timer drift before ${f1(x.drift)} ms; busy-handler total nearest ${x.busyTotal} ms; holders: ${x.holders.slice(0, 3).join('; ')}`,
    );
  return lines;
}
