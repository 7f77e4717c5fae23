// Profiles ctx_search on an open MCP connection: spawns `agentctx mcp` under --cpu-prof against an
// existing store (AGENTCTX_HOME etc. from the environment, cwd = the repository), makes N calls,
// and prints the median round trip and the self time of the hottest functions.
// Usage: node scripts/profile-mcp-search.mjs --cwd REPO [--calls 1000] [--bin bin/agentctx.cjs] [--no-prof]
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const argv = process.argv.slice(2);
const opt = (n, d) => (argv.includes(`--${n}`) ? argv[argv.indexOf(`--${n}`) + 1] : d);
const BIN = opt('bin', join(root, 'bin', 'agentctx.cjs'));
const CALLS = Number(opt('calls', '1000'));
const prof = !argv.includes('--no-prof');
const dir = mkdtempSync(join(tmpdir(), 'agentctx-mcp-prof-'));
const WORDS =
  'auth session token refresh cookie middleware cache redis postgres migration index query retry timeout queue worker webhook billing tenant deploy lock wal busy'.split(
    ' ',
  );
let seed = 7;
const rand = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};
const queries = Array.from({ length: 200 }, () =>
  Array.from({ length: 3 }, () => WORDS[Math.floor(rand() * WORDS.length)]).join(' '),
);
const transport = new StdioClientTransport({
  command: process.execPath,
  args: [...(prof ? ['--cpu-prof', '--cpu-prof-dir', dir] : []), BIN, 'mcp'],
  cwd: opt('cwd', process.cwd()),
  env: process.env,
  stderr: 'ignore',
});
const client = new Client({ name: 'profile', version: '0' });
await client.connect(transport);
const times = [];
for (let k = 0; k < CALLS; k++) {
  const t0 = performance.now();
  await client.callTool({ name: 'ctx_search', arguments: { query: queries[k % queries.length] } });
  times.push(performance.now() - t0);
}
await client.close();
times.sort((a, b) => a - b);
console.log(
  `ctx_search: median ${times[times.length >> 1].toFixed(2)} ms, p95 ${times[Math.floor(times.length * 0.95)].toFixed(2)} ms`,
);
if (prof) {
  await new Promise((r) => setTimeout(r, 1500));
  const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
  if (!file) throw new Error('no profile written');
  const p = JSON.parse(readFileSync(join(dir, file), 'utf8'));
  const self = new Map();
  const dt = p.timeDeltas;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  p.samples.forEach((id, i) => {
    const n = byId.get(id);
    const f = n.callFrame;
    const key = `${f.functionName || '(anon)'} ${f.url.split('/').slice(-1)[0]}:${f.lineNumber}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  // inclusive: each sample counted once for every distinct function on its stack
  const parent = new Map();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const keyOf = (n) =>
    `${n.callFrame.functionName || '(anon)'} ${n.callFrame.url.split('/').slice(-1)[0]}:${n.callFrame.lineNumber}`;
  const incl = new Map();
  p.samples.forEach((id, i) => {
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) seen.add(keyOf(byId.get(at)));
    for (const k of seen) incl.set(k, (incl.get(k) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  console.log('inclusive:');
  for (const [k, v] of [...incl].sort((a, b) => b[1] - a[1]).slice(0, 60))
    console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
  console.log('self:');
  console.log(`profile ${join(dir, file)}: ${total.toFixed(0)} ms sampled`);
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    console.log(`${v.toFixed(1).padStart(8)} ms  ${k}`);
}
