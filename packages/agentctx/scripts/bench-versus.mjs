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
// Run `npm run build` in both checkouts first.
// Usage: node scripts/bench-versus.mjs --before ../other/packages/agentctx --before-node /usr/bin/node
//          [--after-node PATH] [--sizes 10000,100000] [--rounds 15] [--mcp-calls 50] [--no-consolidate]
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { flag, opt } from './bench-args.mjs';
import { median, timeProcess } from './bench-proc.mjs';
import { BIN, benchEnv, LONG, prepareStore, SHORT } from './hook-bench-store.mjs';

const beforePkg = opt('before', '');
const beforeNode = opt('before-node', '');
if (!beforePkg || !beforeNode) {
  console.error('--before DIR (a built packages/agentctx) and --before-node PATH are required');
  process.exit(1);
}
const SIDES = [
  { name: 'before', node: resolve(beforeNode), bin: join(resolve(beforePkg), 'bin', 'agentctx.cjs') },
  { name: 'after', node: resolve(opt('after-node', process.execPath)), bin: BIN },
];
const SIZES = opt('sizes', '10000,100000').split(',').map(Number);
const ROUNDS = Number(opt('rounds', '15'));
const MCP_CALLS = Number(opt('mcp-calls', '50'));

const f1 = (x) => x.toFixed(1);

function version(node) {
  return spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
}

const time = timeProcess;

async function mcp(side, env, cwd) {
  const t0 = performance.now();
  const client = new Client({ name: 'bench-versus', version: '0' });
  await client.connect(
    new StdioClientTransport({ command: side.node, args: [side.bin, 'mcp'], cwd, env, stderr: 'ignore' }),
  );
  const first = await client.callTool({ name: 'ctx_search', arguments: { query: 'webhook retry queue' } });
  const spawnMs = performance.now() - t0;
  if (first.isError) throw new Error(`${side.name}: ctx_search failed: ${JSON.stringify(first.content)}`);
  const calls = [];
  const words = ['cache retry', 'deploy queue', 'auth token', 'database migration', 'build error'];
  for (let i = 0; i < MCP_CALLS; i++) {
    const c0 = performance.now();
    await client.callTool({ name: 'ctx_search', arguments: { query: words[i % words.length] } });
    calls.push(performance.now() - c0);
  }
  await client.close();
  return { spawnMs, callMs: median(calls) };
}

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-versus-'));
try {
  for (const s of SIDES) s.version = version(s.node);
  console.log(
    `before: ${SIDES[0].version}, ${SIDES[0].bin}\nafter: ${SIDES[1].version}, ${SIDES[1].bin}\n` +
      `${ROUNDS} rounds a size; NODE_EXTRA_CA_CERTS unset; load ${loadavg()
        .map((x) => x.toFixed(2))
        .join(' ')}`,
  );
  const hookRows = [];
  const mcpRows = [];
  for (const n of SIZES) {
    const { home, repo } = prepareStore(dir, n);
    // each side its own copy of the home (store, digest, caches, session files)
    const homes = SIDES.map((s) => {
      const h = join(dir, `s${n}`, `home-${s.name}`);
      cpSync(home, h, { recursive: true });
      return h;
    });
    const envs = homes.map((h) => benchEnv(h));
    const samples = SIDES.map(() => ({ node: [], start: [], short: [], long: [] }));
    // CPU time: the sum over the counted rounds (a child's is in 10 ms ticks), divided at the end
    const cpu = SIDES.map(() => ({ node: 0, start: 0, short: 0, long: 0 }));
    for (let i = 0; i < ROUNDS + 2; i++) {
      for (const [k, side] of SIDES.entries()) {
        const env = envs[k];
        const sid = `v-${n}-${i}`;
        const hook = (event, extra, session) =>
          time(
            side.node,
            [side.bin, 'hook', event],
            JSON.stringify({ session_id: session, transcript_path: '/dev/null', cwd: repo, ...extra }),
            env,
            repo,
          );
        const node = time(side.node, ['-e', '0'], '', env, repo);
        const start = hook('session-start', { hook_event_name: 'SessionStart', source: 'startup' }, sid);
        const short = hook(
          'user-prompt-submit',
          { hook_event_name: 'UserPromptSubmit', prompt: SHORT },
          `${sid}-s`,
        );
        const long = hook(
          'user-prompt-submit',
          { hook_event_name: 'UserPromptSubmit', prompt: LONG },
          `${sid}-l`,
        );
        if (i < 2) continue; // warm-up: code caches written
        const s = samples[k];
        const c = cpu[k];
        for (const [key, r] of Object.entries({ node, start, short, long })) {
          s[key].push(r.ms);
          c[key] += r.cpu;
        }
      }
    }
    for (const [k, side] of SIDES.entries()) {
      const s = samples[k];
      const base = median(s.node);
      const cell = (xs) =>
        `${f1(median(xs))} (${(median(xs) / base).toFixed(2)}×, +${f1(median(xs) - base)})`;
      const c = cpu[k];
      const cpuCell = (key) => `${f1(c[key] / ROUNDS)} (+${f1((c[key] - c.node) / ROUNDS)})`;
      hookRows.push(
        `| ${n} | ${side.name}: ${side.version} | ${f1(base)} | ${cell(s.start)} | ${cell(s.short)} | ${cell(s.long)} | ${f1(c.node / ROUNDS)} | ${cpuCell('start')} | ${cpuCell('short')} | ${cpuCell('long')} |`,
      );
    }
    // MCP runs alternate between the sides, as the hook rounds do
    const runs = SIDES.map(() => []);
    for (let r = 0; r < 5; r++)
      for (const [k, side] of SIDES.entries()) runs[k].push(await mcp(side, envs[k], repo));
    for (const [k, side] of SIDES.entries()) {
      let consolidate = '';
      if (!flag('no-consolidate')) {
        const h = join(dir, `s${n}`, `consolidate-${side.name}`);
        cpSync(homes[k], h, { recursive: true });
        const r = time(side.node, [side.bin, 'consolidate', '--json'], '', benchEnv(h), repo);
        consolidate = `${f1(r.ms)} (CPU ${f1(r.cpu)})`;
      }
      mcpRows.push(
        `| ${n} | ${side.name}: ${side.version} | ${f1(median(runs[k].map((r) => r.spawnMs)))} | ${f1(median(runs[k].map((r) => r.callMs)))} | ${consolidate} |`,
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
    "\nMCP and consolidation: medians (spawn: 5 runs; ctx_search: each run's median of " +
      MCP_CALLS +
      ' calls)\n',
  );
  console.log(
    '| records | build | MCP spawn → first ctx_search ms | ctx_search, open connection ms | first consolidation ms |',
  );
  console.log('|---:|---|---:|---:|---:|');
  for (const r of mcpRows) console.log(r);
} finally {
  if (flag('keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
