// Profiles ctx_search on an open MCP connection: spawns `agentctx mcp` under --cpu-prof against an
// existing store (AGENTCTX_HOME etc. from the environment, cwd = the repository), makes N calls,
// and prints the median round trip and the time of the hottest functions, inclusive and self.
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { connect } from '../mcp-client.js';
import { BIN } from '../paths.js';
import { mulberry32, pick } from '../prng.js';
import { readProfile, timeByFunction } from '../profile.js';

const cmd = defineCommand({
  name: 'profile:mcp-search',
  summary: 'ctx_search on an open connection under the CPU profiler, against the store of this environment.',
  options: {
    cwd: { kind: 'string', default: process.cwd(), help: 'the repository the server runs in', value: 'REPO' },
    calls: { kind: 'int', default: 1000, help: 'ctx_search calls' },
    bin: { kind: 'string', default: BIN, help: 'the agentctx bin', value: 'PATH' },
    'no-prof': { kind: 'flag', help: 'time the calls without the profiler' },
  },
});
const v = parseOrExit(cmd).values;
const prof = !v['no-prof'];
const dir = mkdtempSync(join(tmpdir(), 'agentctx-mcp-prof-'));
const WORDS =
  'auth session token refresh cookie middleware cache redis postgres migration index query retry timeout queue worker webhook billing tenant deploy lock wal busy'.split(
    ' ',
  );
const rand = mulberry32(7);
const queries = Array.from({ length: 200 }, () =>
  Array.from({ length: 3 }, () => pick(rand, WORDS)).join(' '),
);
const { client } = await connect({
  pre: prof ? ['--cpu-prof', '--cpu-prof-dir', dir] : [],
  bin: v.bin,
  cwd: v.cwd,
  env: process.env,
  name: 'profile',
});
const times: number[] = [];
for (let k = 0; k < v.calls; k++) {
  const t0 = performance.now();
  await client.callTool({ name: 'ctx_search', arguments: { query: queries[k % queries.length] } });
  times.push(performance.now() - t0);
}
await client.close();
times.sort((a, b) => a - b);
console.log(
  `ctx_search: median ${times[times.length >> 1]?.toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)]?.toFixed(2)} ms`,
);
if (prof) {
  await new Promise((r) => setTimeout(r, 1500));
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const key = (f: { functionName: string; url: string; lineNumber: number }) =>
    `${f.functionName || '(anon)'} ${f.url.split('/').at(-1)}:${f.lineNumber}`;
  const t = timeByFunction(readProfile(join(dir, file)), key, key);
  console.log('inclusive:');
  for (const [k, ms] of [...t.inclusive].sort((a, b) => b[1] - a[1]).slice(0, 60))
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
  console.log('self:');
  console.log(`profile ${join(dir, file)}: ${t.total.toFixed(0)} ms sampled`);
  for (const [k, ms] of [...t.self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${ms.toFixed(1).padStart(8)} ms  ${k}`);
}
