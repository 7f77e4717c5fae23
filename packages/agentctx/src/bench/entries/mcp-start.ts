// The MCP server's cold start, builds side by side: spawn → initialize answered → first
// ctx_search result, for each `--bin` in turn (alternating, so load on the machine falls on all
// alike), with `node -e 0` timed in the same rounds. Runs against an existing store (a kept
// `bench:scale --keep` store: `--store DIR`, project `--repo repo0`). A build whose code
// writes `MARK <name> <ms since process start>` lines to stderr when MCP_MARKS is set (an
// instrumented copy) gets the median of each mark too.
import { spawnSync } from 'node:child_process';
import { join, relative } from 'node:path';
import { defineCommand, KEPT_STORE, parseOrExit } from '../args.js';
import { callJson, connect } from '../mcp-client.js';
import { BIN, benchEnv, PACKAGE_ROOT } from '../paths.js';
import { loadAverage, median } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:mcp-start',
  summary: "The MCP server's cold start on a kept bench:scale store, builds side by side.",
  options: {
    store: KEPT_STORE,
    bin: {
      kind: 'string',
      default: BIN,
      help: 'agentctx bins to compare, comma-separated',
      value: 'A.cjs,B.cjs',
    },
    spawns: { kind: 'int', default: 21, help: 'measured spawns per build' },
    repo: { kind: 'string', default: 'repo0', help: "the project's folder in the store", value: 'NAME' },
  },
});
const { store: STORE, bin, spawns: SPAWNS, repo } = parseOrExit(cmd).values;
const BINS = bin.split(',');
const REPO = join(STORE, repo);
const env: NodeJS.ProcessEnv = { ...benchEnv(join(STORE, 'home')), MCP_MARKS: '1' };
delete env.CLAUDE_CODE_SESSION_ID;

const QUERIES = [
  'cache retry timeout',
  'deploy queue',
  'auth token refresh',
  'database migration',
  'build error',
];

async function once(bin: string, k: number) {
  const t0 = performance.now();
  const c = await connect({ bin, cwd: REPO, env, stderr: 'pipe', name: 'bench-mcp-start' });
  let err = '';
  c.transport.stderr?.on('data', (d: Buffer) => {
    err += d;
  });
  const init = performance.now() - t0;
  await callJson(c.client, 'ctx_search', { query: QUERIES[k % QUERIES.length] });
  const first = performance.now() - t0;
  await c.client.close();
  const marks: Record<string, number> = {};
  for (const m of err.matchAll(/^MARK (\S+) ([\d.]+)$/gm)) marks[m[1] as string] ??= Number(m[2]);
  return { init, first, marks };
}

const byBin = BINS.map(() => ({
  init: [] as number[],
  first: [] as number[],
  marks: new Map<string, number[]>(),
}));
const node: number[] = [];
// one warm-up per build (writes its code cache), not counted
for (const b of BINS) await once(b, 0);
for (let k = 0; k < SPAWNS; k++) {
  const t = performance.now();
  spawnSync(process.execPath, ['-e', '0'], { env });
  node.push(performance.now() - t);
  for (const [b, path] of BINS.entries()) {
    const r = await once(path, k);
    const s = byBin[b] as (typeof byBin)[number];
    s.init.push(r.init);
    s.first.push(r.first);
    for (const [name, ms] of Object.entries(r.marks)) s.marks.set(name, [...(s.marks.get(name) ?? []), ms]);
  }
}
const ns = median(node);
console.log(
  `MCP cold start, ${SPAWNS} spawns per build, alternating; node ${process.version}; load average ${loadAverage()}`,
);
console.log(`node -e 0: median ${ns.toFixed(1)} ms`);
for (const [b, path] of BINS.entries()) {
  const s = byBin[b] as (typeof byBin)[number];
  console.log(
    `${relative(PACKAGE_ROOT, path) || path}: spawn → initialized ${median(s.init).toFixed(1)} ms; → first ctx_search result ${median(s.first).toFixed(1)} ms (${(median(s.first) / ns).toFixed(2)}× node -e 0)`,
  );
  const marks = [...s.marks].sort((x, y) => median(x[1]) - median(y[1]));
  if (marks.length)
    console.log(
      `  marks (ms since process start): ${marks.map(([n, v]) => `${n} ${median(v).toFixed(1)}`).join(', ')}`,
    );
}
