// Does the MCP server's memory grow with use? Spawns the BUILT `agentctx mcp` against an existing
// store (a kept `bench:scale --keep` store: `--store DIR`, project `--repo repo0`), makes a
// realistic mix of calls — ctx_search with varied queries (words of the store's own titles,
// some with a type or a limit, a few unknown words), ctx_get of ids it found, ctx_related,
// ctx_project — and at each checkpoint reads the process's memory: from /proc (resident, its
// private part, its file pages) and from V8 (heap used/total, external) through a preload that
// answers SIGUSR2, before and after a full garbage collection. At the end, the file pages by
// mapping (the node binary, the store, the SQLite addon …). Linux only.
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDb } from '../../database/open.js';
import { defineCommand, KEPT_STORE, parseOrExit } from '../args.js';
import { callJson, connect } from '../mcp-client.js';
import { BIN, benchEnv, storePath } from '../paths.js';
import { mulberry32, pick } from '../prng.js';
import { f1, memoryOf } from '../proc.js';

const cmd = defineCommand({
  name: 'measure:mcp-growth',
  summary: "The MCP server's memory over many calls on a kept bench:scale store (Linux).",
  options: {
    store: KEPT_STORE,
    repo: { kind: 'string', default: 'repo0', help: "the project's folder in the store", value: 'NAME' },
    checkpoints: { kind: 'ints', default: [100, 1000, 3000, 10000], help: 'calls at which memory is read' },
    bin: { kind: 'string', default: BIN, help: 'the agentctx bin', value: 'PATH' },
    session: {
      kind: 'string',
      default: '',
      help: 'a Claude Code session id: results accounted as under Claude Code',
      value: 'ID',
    },
    snapshot: { kind: 'flag', help: 'a heap snapshot at each checkpoint' },
    spaces: { kind: 'flag', help: "V8's heap spaces at each checkpoint" },
    smaps: {
      kind: 'string',
      default: '',
      help: 'a folder for a copy of /proc/PID/smaps at each checkpoint',
      value: 'DIR',
    },
    'node-flags': {
      kind: 'string',
      default: '',
      help: "the server's Node flags (--node-flags='--max-semi-space-size=1')",
      value: 'FLAGS',
    },
  },
});
const v = parseOrExit(cmd).values;
const home = join(v.store, 'home');
const env: NodeJS.ProcessEnv = {
  ...benchEnv(home),
  ...(v.session ? { CLAUDE_CODE_SESSION_ID: v.session } : {}),
};
if (!v.session) delete env.CLAUDE_CODE_SESSION_ID;

const rand = mulberry32(77);

// words of the store's titles, so queries match as real ones do
const db = openDb(storePath(home), { readonly: true });
const titles = db.prepare('SELECT title FROM records ORDER BY rowid LIMIT 5000').all() as { title: string }[];
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

const { client, pid } = await connect({
  pre: [...v['node-flags'].split(' ').filter(Boolean), '--expose-gc', '-r', preload],
  bin: v.bin,
  cwd: join(v.store, v.repo),
  env: { ...env, ...(v.snapshot ? { GROWTH_SNAPSHOT: '1' } : {}) },
  stderr: 'inherit',
  name: 'mcp-growth',
});

interface V8Figures {
  before: NodeJS.MemoryUsage;
  after: NodeJS.MemoryUsage;
  spaces: Record<string, number>;
  anon: number;
}
let asked = 0;
const v8Figures = async (): Promise<V8Figures> => {
  asked++;
  process.kill(pid, 'SIGUSR2');
  const file = join(dir, `mem-${asked}.json`);
  for (let i = 0; i < 2000 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 10));
  return JSON.parse(readFileSync(file, 'utf8')) as V8Figures;
};
/** Resident memory by mapping (MB): the node binary, malloc's heap, anonymous maps, the store … */
const byMapping = () => {
  const byFile = new Map<string, number>();
  let current: string | null = null;
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
const MB = (b: number) => (b / 2 ** 20).toFixed(1);

const found: string[] = [];
let calls = 0;
const times: Record<string, number[]> = { ctx_search: [], ctx_get: [], ctx_related: [], ctx_project: [] };
const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
  const t0 = performance.now();
  const r = await callJson<T>(client, name, args);
  times[name]?.push(performance.now() - t0);
  calls++;
  return r;
};
const query = () => {
  const q = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(rand, words));
  if (rand() < 0.1) q.push(`zq${Math.floor(rand() * 1e6).toString(36)}`); // a word no record has
  return q.join(' ');
};
/** One step of the mix: 6 searches, 2 reads, 1 file, 1 profile in every 10 calls. */
const step = async () => {
  const k = calls % 10;
  if (k < 6) {
    const args: Record<string, unknown> = { query: query() };
    if (rand() < 0.2) args.type = pick(rand, TYPES);
    if (rand() < 0.2) args.limit = 1 + Math.floor(rand() * 15);
    const res = await call<{ results: { id: string }[] }>('ctx_search', args);
    for (const h of res.results.slice(0, 3)) found.push(h.id);
    if (found.length > 500) found.splice(0, found.length - 500);
  } else if (k < 8) {
    const ids = found.length
      ? Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(rand, found))
      : ['none'];
    await call('ctx_get', { ids });
  } else if (k === 8) await call('ctx_related', { file: pick(rand, FILES) });
  else await call('ctx_project', {});
};

console.log(
  `agentctx MCP memory growth — node ${process.version}; store ${v.store} (${v.repo}); ${words.length} query words; session accounting ${v.session ? 'on' : 'off'}`,
);
console.log(
  'calls | RSS MB | private MB (after a full GC) | file MB | heap used MB (after GC) | heap total MB | external MB | search median ms',
);
for (const cp of v.checkpoints) {
  const since = times.ctx_search?.length ?? 0;
  while (calls < cp) await step();
  const p = memoryOf(pid);
  const m = await v8Figures();
  const recent = (times.ctx_search ?? []).slice(since).sort((a, b) => a - b);
  console.log(
    `${cp} | ${f1(p.rss)} | ${f1(p.anon)} (${MB(m.anon)}) | ${f1(p.file)} | ${MB(m.before.heapUsed)} (${MB(m.after.heapUsed)}) | ${MB(m.after.heapTotal)} | ${MB(m.after.external)} | ${(recent[recent.length >> 1] ?? 0).toFixed(2)}`,
  );
  console.log(`  resident by mapping (MB): ${byMapping()}`);
  if (v.smaps) writeFileSync(join(v.smaps, `smaps-${cp}`), readFileSync(`/proc/${pid}/smaps`));
  if (v.spaces)
    console.log(
      `  V8 spaces (MB): ${Object.entries(m.spaces)
        .map(([k, b]) => `${k} ${MB(b)}`)
        .join(', ')}`,
    );
}
await client.close();
if (v.snapshot) console.log(`heap snapshots in ${dir}`);
