// The MCP server's cold start, builds side by side: spawn → initialize answered → first
// ctx_search result, for each `--bin` in turn (alternating, so load on the machine falls on all
// alike), with `node -e 0` timed in the same rounds. Runs against an existing store (a kept
// `bench-scale.mjs --keep` store: `--store DIR`, project `--repo repo0`). A build whose code
// writes `MARK <name> <ms since process start>` lines to stderr when MCP_MARKS is set (an
// instrumented copy) gets the median of each mark too.
// Usage: node scripts/bench-mcp-start.mjs --store DIR [--bin A.cjs,B.cjs] [--spawns 21] [--repo repo0]
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { opt, requiredStore } from './bench-args.mjs';
import { benchEnv } from './hook-bench-store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const STORE = requiredStore();
const BINS = opt('bin', join(root, 'bin', 'agentctx.cjs')).split(',');
const SPAWNS = Number(opt('spawns', '21'));
const REPO = join(STORE, opt('repo', 'repo0'));
const env = { ...benchEnv(join(STORE, 'home')), MCP_MARKS: '1' };
delete env.CLAUDE_CODE_SESSION_ID;

const QUERIES = [
  'cache retry timeout',
  'deploy queue',
  'auth token refresh',
  'database migration',
  'build error',
];
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1] : Number.NaN;
};
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

async function once(bin, k) {
  const t0 = performance.now();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, 'mcp'],
    cwd: REPO,
    env,
    stderr: 'pipe',
  });
  let err = '';
  transport.stderr?.on('data', (c) => {
    err += c;
  });
  const client = new Client({ name: 'bench-mcp-start', version: '0' });
  await client.connect(transport);
  const init = performance.now() - t0;
  const r = await client.callTool({ name: 'ctx_search', arguments: { query: QUERIES[k % QUERIES.length] } });
  const first = performance.now() - t0;
  if (r.isError) throw new Error(`ctx_search failed: ${r.content?.[0]?.text}`);
  await client.close();
  const marks = {};
  for (const m of err.matchAll(/^MARK (\S+) ([\d.]+)$/gm)) marks[m[1]] ??= Number(m[2]);
  return { init, first, marks };
}

const byBin = BINS.map(() => ({ init: [], first: [], marks: {} }));
const node = [];
// one warm-up per build (writes its code cache), not counted
for (const bin of BINS) await once(bin, 0);
for (let k = 0; k < SPAWNS; k++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  node.push(performance.now() - t);
  for (let b = 0; b < BINS.length; b++) {
    const r = await once(BINS[b], k);
    byBin[b].init.push(r.init);
    byBin[b].first.push(r.first);
    for (const [name, ms] of Object.entries(r.marks)) {
      byBin[b].marks[name] ??= [];
      byBin[b].marks[name].push(ms);
    }
  }
}
const ns = median(node);
console.log(
  `MCP cold start, ${SPAWNS} spawns per build, alternating; node ${process.version}; load average ${load()}`,
);
console.log(`node -e 0: median ${ns.toFixed(1)} ms`);
BINS.forEach((bin, b) => {
  const s = byBin[b];
  console.log(
    `${relative(root, bin) || bin}: spawn → initialized ${median(s.init).toFixed(1)} ms; → first ctx_search result ${median(s.first).toFixed(1)} ms (${(median(s.first) / ns).toFixed(2)}× node -e 0)`,
  );
  const marks = Object.entries(s.marks).sort((x, y) => median(x[1]) - median(y[1]));
  if (marks.length)
    console.log(
      `  marks (ms since process start): ${marks.map(([n, v]) => `${n} ${median(v).toFixed(1)}`).join(', ')}`,
    );
});
