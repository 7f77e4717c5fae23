// Eight sessions at once for 40 s: eight MCP servers (one per project) searching, prompt and Stop
// hooks firing in all eight, one consolidation running; a probe takes the store's write lock
// (BEGIN IMMEDIATE) every 20 ms and times each wait; the servers' total memory. With a hold
// log, every process of the run logs its write-lock holds (scripts/lock-holds.cjs, preloaded)
// and each wait over 50 ms is attributed to what held the lock.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb } from '../../database/open.js';
import { attribution, readJsonl, type Wait } from '../lock-attribution.js';
import { connect } from '../mcp-client.js';
import { PACKAGE_ROOT, storePath } from '../paths.js';
import { zipf } from '../prng.js';
import { f1, loadAverage, median, memoryOf, quantile, timeNodeAsync } from '../proc.js';
import { DEV_WORDS } from '../text.js';
import { mem, type PartContext } from './parts.js';
import { identifiers, rand, type ScaleStore } from './store.js';

const SESSIONS = 8;

/** The probe thread's run-queue delay so far, ms (runnable, not scheduled). */
function runQueueMs(): number {
  try {
    return Number(readFileSync('/proc/thread-self/schedstat', 'utf8').split(' ')[1]) / 1e6;
  } catch {
    return Number.NaN;
  }
}

export async function eightPart(c: PartContext, store: ScaleStore, holdLog: string): Promise<void> {
  // with a hold log, every process of the run logs its write-lock holds
  const holds = holdLog ? ['-r', join(PACKAGE_ROOT, 'scripts', 'lock-holds.cjs')] : [];
  const runEnv = holdLog ? { ...c.env, AGENTCTX_LOCK_LOG: holdLog } : c.env;
  if (holdLog) rmSync(holdLog, { force: true });
  const servers = await Promise.all(
    store.repos
      .slice(0, SESSIONS)
      .map((r) => connect({ pre: holds, bin: c.bin, cwd: r, env: runEnv, name: 'bench-scale' })),
  );
  const probe = openDb(storePath(store.home), { busyTimeoutMs: 60_000 });
  // each wait: when it began (monotonic clock, comparable with the hold log), how long, the probe
  // thread's run-queue delay meanwhile, and how late its timer fired
  const waits: Wait[] = [];
  let stop = false;
  const probeLoop = (async () => {
    let drift = 0;
    while (!stop) {
      const q0 = runQueueMs();
      const t = Number(process.hrtime.bigint()) / 1e6;
      const t0 = performance.now();
      probe.prepare('BEGIN IMMEDIATE').run();
      const ms = performance.now() - t0;
      waits.push({ t, ms, runDelay: runQueueMs() - q0, drift });
      probe.prepare('ROLLBACK').run();
      const s0 = performance.now();
      await new Promise((r) => setTimeout(r, 20));
      drift = performance.now() - s0 - 20;
    }
  })();
  // a consolidation of a project whose watermarks are gone: a first run's work, holding write locks
  const consolidation = timeNodeAsync(
    [...holds, c.bin, 'consolidate', '--json', '--rebuild', '--budget-ms', '900000'],
    '',
    runEnv,
    store.repos[SESSIONS] as string,
  );
  const hookTimes = { prompt: [] as number[], stop: [] as number[] };
  const mcpTimes: number[] = [];
  const deadline = performance.now() + 40_000;
  const session = async (s: number) => {
    let k = 0;
    const cwd = store.repos[s] as string;
    const own = identifiers(s, 3000);
    const server = servers[s] as (typeof servers)[number];
    while (performance.now() < deadline) {
      const q = `${zipf(rand, DEV_WORDS)} ${zipf(rand, own)} ${zipf(rand, DEV_WORDS)}`;
      const t0 = performance.now();
      await server.client.callTool({ name: 'ctx_search', arguments: { query: q } });
      mcpTimes.push(performance.now() - t0);
      const p = await timeNodeAsync(
        [...holds, c.bin, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `eight-${s}`,
          cwd,
          transcript_path: '/dev/null',
          hook_event_name: 'UserPromptSubmit',
          prompt: `What did we decide about ${q}?`,
        }),
        runEnv,
        cwd,
      );
      hookTimes.prompt.push(p.ms);
      if (k++ % 3 === 2) {
        const st = await timeNodeAsync(
          [...holds, c.bin, 'hook', 'stop'],
          JSON.stringify({ session_id: `eight-${s}`, cwd, hook_event_name: 'Stop' }),
          runEnv,
          cwd,
        );
        hookTimes.stop.push(st.ms);
      }
    }
  };
  await Promise.all(Array.from({ length: SESSIONS }, (_, s) => session(s)));
  const mems = servers.map((sv) => memoryOf(sv.pid));
  const sum = (k: 'rss' | 'anon' | 'file') => mems.reduce((n, m) => n + m[k], 0);
  const rssTotal = { rss: sum('rss'), anon: sum('anon'), file: sum('file') };
  const cons = await consolidation;
  stop = true;
  await probeLoop;
  probe.close();
  await Promise.all(servers.map((sv) => sv.client.close()));
  const ms = waits.map((w) => w.ms);
  const dist = (xs: number[]) =>
    `n ${xs.length}, median ${f1(median(xs))}, p95 ${f1(quantile(xs, 0.95))}, p99 ${f1(quantile(xs, 0.99))}, max ${f1(Math.max(...xs))} ms`;
  c.say('');
  c.say(`### ${SESSIONS} sessions at once (40 s; load average ${loadAverage()})`);
  c.say(
    `write-lock waits (probe, BEGIN IMMEDIATE every 20 ms): ${dist(ms)}; over 50 ms: ${ms.filter((w) => w > 50).length}`,
  );
  if (holdLog) {
    writeFileSync(`${holdLog}.waits.jsonl`, waits.map((w) => `${JSON.stringify(w)}\n`).join(''));
    // the servers flush their holds when they exit
    await new Promise((r) => setTimeout(r, 500));
    const lines = existsSync(holdLog) ? attribution(waits, readJsonl(holdLog)) : ['no holds logged'];
    c.say(`write-lock wait attribution: ${lines[0]}`);
    for (const l of lines.slice(1)) console.log(l);
  }
  c.say(`prompt hook wall time: ${dist(hookTimes.prompt)}`);
  c.say(`Stop hook wall time: ${dist(hookTimes.stop)}`);
  c.say(`ctx_search round trip: ${dist(mcpTimes)}`);
  c.say(`consolidation running beside them (--rebuild): ${f1(cons.ms / 1000)} s`);
  c.say(
    `the ${SESSIONS} MCP servers' resident memory together: ${mem(rssTotal)} (file pages are shared between them)`,
  );
}
