// Does the MCP server's memory grow with use? Spawns the BUILT `agentctx mcp` against an existing
// store (a kept `bench-scale.mjs --keep` store: `--store DIR`, project `--repo repo0`), makes a
// realistic mix of calls — ctx_search with varied queries (words of the store's own titles,
// some with a type or a limit, a few unknown words), ctx_get of ids it found, ctx_related,
// ctx_project — and at each checkpoint reads the process's memory: from /proc (resident, its
// private part, its file pages) and from V8 (heap used/total, external) through a preload that
// answers SIGUSR2, before and after a full garbage collection. At the end, the file pages by
// mapping (the node binary, the store, the SQLite addon …).
// Linux only. Run `npm run build` first.
// Usage: node scripts/measure-mcp-growth.mjs --store DIR [--repo repo0] [--checkpoints 100,1000,3000,10000]
//   [--bin bin/agentctx.cjs] [--session ID] (a Claude Code session id: the server then accounts
//   every result in the store, as under Claude Code) [--snapshot] (heap snapshots at each checkpoint)
//   [--spaces] (V8's heap spaces at each checkpoint) [--smaps DIR] (a copy of /proc/PID/smaps at each) [--node-flags '--max-semi-space-size=1 …']
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { flag, opt, requiredStore } from './bench-args.mjs';
import { benchEnv } from './hook-bench-store.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { Db: Database } = createRequire(import.meta.url)('../dist/sqlite.cjs');
const STORE = requiredStore();
const BIN = opt('bin', join(root, 'bin', 'agentctx.cjs'));
const REPO = join(STORE, opt('repo', 'repo0'));
const CHECKPOINTS = opt('checkpoints', '100,1000,3000,10000').split(',').map(Number);
const SESSION = opt('session', '');
const SNAPSHOT = flag('snapshot');
const home = join(STORE, 'home');
const env = { ...benchEnv(home), ...(SESSION ? { CLAUDE_CODE_SESSION_ID: SESSION } : {}) };
if (!SESSION) delete env.CLAUDE_CODE_SESSION_ID;

let seed = 77;
const rand = () => {
  seed = (seed * 1664525 + 1013904223) >>> 0;
  return seed / 2 ** 32;
};
const pick = (xs) => xs[Math.floor(rand() * xs.length)];

// words of the store's titles, so queries match as real ones do
const db = new Database(join(home, '.agentctx', 'agentctx.db'), { readonly: true });
const titles = db.prepare('SELECT title FROM records ORDER BY rowid LIMIT 5000').all();
db.close();
const words = [...new Set(titles.flatMap((r) => r.title.toLowerCase().match(/[a-z][a-z0-9_]{2,}/g) ?? []))];
const TYPES = ['decision', 'convention', 'preference', 'bugfix', 'discovery', 'handover'];
const FILES = Array.from({ length: 400 }, (_, i) => `src/mod${i % 40}/file${i}.ts`);

// the preload: V8's figures on SIGUSR2, after and before a full collection
const dir = mkdtempSync(join(tmpdir(), 'agentctx-mcp-growth-'));
const preload = join(dir, 'preload.cjs');
writeFileSync(
  preload,
  `const fs = require('node:fs'); const v8 = require('node:v8'); let n = 0;
process.on('SIGUSR2', () => {
  const before = process.memoryUsage();
  globalThis.gc?.();
  const after = process.memoryUsage();
  const out = ${JSON.stringify(dir)} + '/mem-' + (++n) + '.json';
  if (process.env.GROWTH_SNAPSHOT) v8.writeHeapSnapshot(${JSON.stringify(dir)} + '/heap-' + n + '.heapsnapshot');
  const anon = Number(/RssAnon:\\s+(\\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'))[1]) * 1024;
  const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((x) => [x.space_name, x.space_size]));
  fs.writeFileSync(out + '.tmp', JSON.stringify({ before, after, spaces, anon }));
  fs.renameSync(out + '.tmp', out);
});`,
);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [...opt('node-flags', '').split(' ').filter(Boolean), '--expose-gc', '-r', preload, BIN, 'mcp'],
  cwd: REPO,
  env: { ...env, ...(SNAPSHOT ? { GROWTH_SNAPSHOT: '1' } : {}) },
  stderr: 'inherit',
});
const client = new Client({ name: 'mcp-growth', version: '0' });
await client.connect(transport);
const pid = transport.pid;

const proc = () => {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile'), shmem: kb('RssShmem') };
};
let asked = 0;
const v8Figures = async () => {
  asked++;
  process.kill(pid, 'SIGUSR2');
  const file = join(dir, `mem-${asked}.json`);
  for (let i = 0; i < 2000 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 10));
  return JSON.parse(readFileSync(file, 'utf8'));
};
/** Resident memory by mapping (MB): the node binary, malloc's heap, anonymous maps, the store … */
const byMapping = () => {
  const byFile = new Map();
  let current = null;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      current = head[1] || '[anon]';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss && current) byFile.set(current, (byFile.get(current) ?? 0) + Number(rss[1]));
  }
  return [...byFile]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([f, kb]) => `${f.split('/').pop()} ${f1(kb / 1024)}`)
    .join(', ');
};
const MB = (b) => (b / 2 ** 20).toFixed(1);
const f1 = (x) => x.toFixed(1);

const found = [];
let calls = 0;
const times = { ctx_search: [], ctx_get: [], ctx_related: [], ctx_project: [] };
const call = async (name, args) => {
  const t0 = performance.now();
  const r = await client.callTool({ name, arguments: args });
  times[name].push(performance.now() - t0);
  calls++;
  if (r.isError) throw new Error(`${name} failed: ${r.content?.[0]?.text}`);
  return JSON.parse(r.content[0].text);
};
const query = () => {
  const n = 1 + Math.floor(rand() * 4);
  const q = Array.from({ length: n }, () => pick(words));
  if (rand() < 0.1) q.push(`zq${Math.floor(rand() * 1e6).toString(36)}`); // a word no record has
  return q.join(' ');
};
/** One step of the mix: 6 searches, 2 reads, 1 file, 1 profile in every 10 calls. */
const step = async () => {
  const k = calls % 10;
  if (k < 6) {
    const args = { query: query() };
    if (rand() < 0.2) args.type = pick(TYPES);
    if (rand() < 0.2) args.limit = 1 + Math.floor(rand() * 15);
    const res = await call('ctx_search', args);
    for (const h of res.results.slice(0, 3)) found.push(h.id);
    if (found.length > 500) found.splice(0, found.length - 500);
  } else if (k < 8) {
    const ids = found.length
      ? Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(found))
      : ['none'];
    await call('ctx_get', { ids });
  } else if (k === 8) await call('ctx_related', { file: pick(FILES) });
  else await call('ctx_project', {});
};

console.log(
  `agentctx MCP memory growth — node ${process.version}; store ${STORE} (${opt('repo', 'repo0')}); ${words.length} query words; session accounting ${SESSION ? 'on' : 'off'}`,
);
console.log(
  'calls | RSS MB | private MB (after a full GC) | file MB | heap used MB (after GC) | heap total MB | external MB | search median ms',
);
for (const cp of CHECKPOINTS) {
  const since = times.ctx_search.length;
  while (calls < cp) await step();
  const p = proc();
  const v = await v8Figures();
  const recent = times.ctx_search.slice(since).sort((a, b) => a - b);
  console.log(
    `${cp} | ${f1(p.rss)} | ${f1(p.anon)} (${MB(v.anon)}) | ${f1(p.file)} | ${MB(v.before.heapUsed)} (${MB(v.after.heapUsed)}) | ${MB(v.after.heapTotal)} | ${MB(v.after.external)} | ${(recent[recent.length >> 1] ?? 0).toFixed(2)}`,
  );
  console.log(`  resident by mapping (MB): ${byMapping()}`);
  if (opt('smaps', ''))
    writeFileSync(join(opt('smaps', ''), `smaps-${cp}`), readFileSync(`/proc/${pid}/smaps`));
  if (flag('spaces'))
    console.log(
      `  V8 spaces (MB): ${Object.entries(v.spaces)
        .map(([k, b]) => `${k} ${MB(b)}`)
        .join(', ')}`,
    );
}
await client.close();
if (SNAPSHOT) console.log(`heap snapshots in ${dir}`);
