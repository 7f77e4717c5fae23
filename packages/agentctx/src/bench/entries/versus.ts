// Two installs side by side, in one run: this checkout under its Node (`--after-node`, default
// the Node running this script) against another build (`--before DIR`, that checkout's
// packages/agentctx with its dist/ and node_modules) under `--before-node`. Same stores (the
// synthetic store of bench:hooks, copied for each side), rounds interleaved so that load on the
// machine falls on both alike, `node -e 0` of each Node timed in the same rounds. Prints:
// - hooks: SessionStart, a short prompt, the 55-word prompt, in ms, as a ratio to `node -e 0`
//   of the same Node, and as the hook's own cost (its median minus that Node's `node -e 0`);
// - MCP: spawn → first ctx_search result, and ctx_search on an open connection;
// - the first consolidation of a copy of each store (`agentctx consolidate`, one run a side).
// NODE_EXTRA_CA_CERTS and NODE_OPTIONS are removed from every child's environment.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { LONG, prepareStore, SHORT } from '../hook-store.js';
import { callJson, connect } from '../mcp-client.js';
import { BIN, benchEnv } from '../paths.js';
import { f1, loadAverage, median, type Timed, timeProcess } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:versus',
  summary:
    'This build against another, hooks, MCP and consolidation, interleaved (build the other checkout first).',
  options: {
    before: {
      kind: 'string',
      default: '',
      required: true,
      help: "the other checkout's packages/agentctx",
      value: 'DIR',
    },
    'before-node': {
      kind: 'string',
      default: '',
      required: true,
      help: 'the Node to run it with',
      value: 'PATH',
    },
    'after-node': {
      kind: 'string',
      default: process.execPath,
      help: 'the Node to run this build with',
      value: 'PATH',
    },
    sizes: { kind: 'ints', default: [10000, 100000], help: 'store sizes, in records' },
    rounds: { kind: 'int', default: 15, help: 'measured hook rounds per size' },
    'mcp-calls': { kind: 'int', default: 50, help: 'ctx_search calls per MCP run' },
    'no-consolidate': { kind: 'flag', help: 'leave out the consolidation' },
    keep: { kind: 'flag', help: 'keep the stores and print their folder' },
  },
});
const v = parseOrExit(cmd).values;
interface Side {
  name: string;
  node: string;
  bin: string;
  version?: string;
}
const SIDES: Side[] = [
  { name: 'before', node: resolve(v['before-node']), bin: join(resolve(v.before), 'bin', 'agentctx.cjs') },
  { name: 'after', node: resolve(v['after-node']), bin: BIN },
];
const ROUNDS = v.rounds;

async function mcp(side: Side, env: NodeJS.ProcessEnv, cwd: string) {
  const t0 = performance.now();
  const c = await connect({ node: side.node, bin: side.bin, cwd, env, name: 'bench-versus' });
  await callJson(c.client, 'ctx_search', { query: 'webhook retry queue' });
  const spawnMs = performance.now() - t0;
  const calls: number[] = [];
  const words = ['cache retry', 'deploy queue', 'auth token', 'database migration', 'build error'];
  for (let i = 0; i < v['mcp-calls']; i++) {
    const c0 = performance.now();
    await c.client.callTool({ name: 'ctx_search', arguments: { query: words[i % words.length] } });
    calls.push(performance.now() - c0);
  }
  await c.client.close();
  return { spawnMs, callMs: median(calls) };
}

const KEYS = ['node', 'start', 'short', 'long'] as const;
type Key = (typeof KEYS)[number];
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-versus-'));
try {
  for (const s of SIDES) s.version = spawnSync(s.node, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const [before, after] = SIDES as [Side, Side];
  console.log(
    `before: ${before.version}, ${before.bin}\nafter: ${after.version}, ${after.bin}\n${ROUNDS} rounds a size; NODE_EXTRA_CA_CERTS unset; load ${loadAverage()}`,
  );
  const hookRows: string[] = [];
  const mcpRows: string[] = [];
  for (const n of v.sizes) {
    const { home, repo } = prepareStore(dir, n);
    // each side its own copy of the home (store, digest, caches, session files)
    const homes = SIDES.map((s) => {
      const h = join(dir, `s${n}`, `home-${s.name}`);
      cpSync(home, h, { recursive: true });
      return h;
    });
    const envs = homes.map((h) => benchEnv(h));
    const samples = SIDES.map(() => ({ node: [], start: [], short: [], long: [] }) as Record<Key, number[]>);
    // CPU time: the sum over the counted rounds (a child's is in 10 ms ticks), divided at the end
    const cpu = SIDES.map(() => ({ node: 0, start: 0, short: 0, long: 0 }) as Record<Key, number>);
    for (let i = 0; i < ROUNDS + 2; i++) {
      for (const [k, side] of SIDES.entries()) {
        const env = envs[k] as NodeJS.ProcessEnv;
        const sid = `v-${n}-${i}`;
        const hook = (event: string, extra: object, session: string) =>
          timeProcess(
            side.node,
            [side.bin, 'hook', event],
            JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: repo, ...extra }),
            env,
            repo,
          );
        const r: Record<Key, Timed> = {
          node: timeProcess(side.node, ['-e', '0'], '', env, repo),
          start: hook('session-start', { hook_event_name: 'SessionStart', source: 'startup' }, sid),
          short: hook(
            'user-prompt-submit',
            { hook_event_name: 'UserPromptSubmit', prompt: SHORT },
            `${sid}-s`,
          ),
          long: hook('user-prompt-submit', { hook_event_name: 'UserPromptSubmit', prompt: LONG }, `${sid}-l`),
        };
        if (i < 2) continue; // warm-up: code caches written
        for (const key of KEYS) {
          (samples[k] as Record<Key, number[]>)[key].push(r[key].ms);
          (cpu[k] as Record<Key, number>)[key] += r[key].cpu;
        }
      }
    }
    for (const [k, side] of SIDES.entries()) {
      const s = samples[k] as Record<Key, number[]>;
      const c = cpu[k] as Record<Key, number>;
      const base = median(s.node);
      const cell = (xs: number[]) =>
        `${f1(median(xs))} (${(median(xs) / base).toFixed(2)}×, +${f1(median(xs) - base)})`;
      const cpuCell = (key: Key) => `${f1(c[key] / ROUNDS)} (+${f1((c[key] - c.node) / ROUNDS)})`;
      hookRows.push(
        `| ${n} | ${side.name}: ${side.version} | ${f1(base)} | ${cell(s.start)} | ${cell(s.short)} | ${cell(s.long)} | ${f1(c.node / ROUNDS)} | ${cpuCell('start')} | ${cpuCell('short')} | ${cpuCell('long')} |`,
      );
    }
    // MCP runs alternate between the sides, as the hook rounds do
    const runs = SIDES.map(() => [] as { spawnMs: number; callMs: number }[]);
    for (let r = 0; r < 5; r++)
      for (const [k, side] of SIDES.entries())
        runs[k]?.push(await mcp(side, envs[k] as NodeJS.ProcessEnv, repo));
    for (const [k, side] of SIDES.entries()) {
      let consolidate = '';
      if (!v['no-consolidate']) {
        const h = join(dir, `s${n}`, `consolidate-${side.name}`);
        cpSync(homes[k] as string, h, { recursive: true });
        const r = timeProcess(side.node, [side.bin, 'consolidate', '--json'], '', benchEnv(h), repo);
        consolidate = `${f1(r.ms)} (CPU ${f1(r.cpu)})`;
      }
      const mine = runs[k] ?? [];
      mcpRows.push(
        `| ${n} | ${side.name}: ${side.version} | ${f1(median(mine.map((r) => r.spawnMs)))} | ${f1(median(mine.map((r) => r.callMs)))} | ${consolidate} |`,
      );
    }
  }
  console.log(
    '\nHooks: wall median ms (ratio to node -e 0 of the same Node, own cost in ms); CPU: mean ms of user + system time (own: minus node -e 0)\n',
  );
  console.log(
    '| records | build | node -e 0 ms | SessionStart | prompt, short | prompt, 55 words | CPU: node -e 0 | CPU: SessionStart (own) | CPU: short (own) | CPU: 55 words (own) |',
  );
  console.log('|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const r of hookRows) console.log(r);
  console.log(
    `\nMCP and consolidation: medians (spawn: 5 runs; ctx_search: each run's median of ${v['mcp-calls']} calls)\n`,
  );
  console.log(
    '| records | build | MCP spawn → first ctx_search ms | ctx_search, open connection ms | first consolidation ms |',
  );
  console.log('|---:|---|---:|---:|---:|');
  for (const r of mcpRows) console.log(r);
} finally {
  if (v.keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
