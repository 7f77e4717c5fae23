// What query-time vectors cost in memory: the resident set (VmRSS, and its peak VmHWM) of the
// BUILT `agentctx mcp` after a few ctx_search calls, keyword-only (the default) and with
// `search.queryVectors` on, over the same store whose records were embedded by consolidation.
// Linux only (reads /proc). Usage: node scripts/measure-mcp-memory.mjs [--model NAME]
// [--models DIR] [--records 200] [--runs 3]. Defaults to the glove fixture in test/fixtures/models;
// a real model (bge-small-en-v1.5) needs its files in --models.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const BIN = join(root, 'bin', 'agentctx.cjs');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? def : process.argv[i + 1];
};
const MODEL = arg('model', 'glove-sif-384-q8');
const MODELS = arg('models', join(root, 'test', 'fixtures', 'models'));
const RECORDS = Number(arg('records', 200));
const RUNS = Number(arg('runs', 3));

if (process.platform !== 'linux') {
  console.error('measure-mcp-memory reads /proc: Linux only');
  process.exit(1);
}

const home = mkdtempSync(join(tmpdir(), 'agentctx-mcp-memory-'));
const repo = join(home, 'repo');
mkdirSync(join(repo, '.git'), { recursive: true });
writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
writeFileSync(join(repo, '.git', 'config'), '[core]\n\trepositoryformatversion = 0\n');
const env = {
  PATH: process.env.PATH,
  HOME: home,
  AGENTCTX_HOME: join(home, '.agentctx'),
  AGENTCTX_TMPDIR: join(home, 'tmp'),
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  AGENTCTX_NO_CLAUDE_CLI: '1',
  AGENTCTX_EMBED_MODEL: MODEL,
  AGENTCTX_MODEL_PATH: MODELS,
};
const cli = (...args) => {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: repo,
    env,
    encoding: 'utf8',
    timeout: 600_000,
  });
  if (r.status !== 0) throw new Error(`agentctx ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

const TOPICS = [
  'cache',
  'queue',
  'ledger',
  'deploy',
  'auth',
  'billing',
  'search',
  'tests',
  'schema',
  'logging',
];
for (let i = 0; i < RECORDS; i++) {
  const t = TOPICS[i % TOPICS.length];
  cli(
    'record',
    '--type',
    'discovery',
    '--title',
    `Note ${i} on ${t}`,
    '--body',
    `The ${t} module keeps rule ${i}.`,
  );
}
const cons = JSON.parse(cli('consolidate', '--json'));
if (cons.embeddings?.status !== 'on') throw new Error(`embeddings off: ${JSON.stringify(cons.embeddings)}`);

function memory(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function measure(queryVectors) {
  cli('config', 'set', 'search.queryVectors', String(queryVectors));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp'],
    cwd: repo,
    env,
  });
  const client = new Client({ name: 'measure', version: '0' });
  await client.connect(transport);
  const log = join(env.AGENTCTX_HOME, 'logs', 'mcp.log');
  const before = (() => {
    try {
      return readFileSync(log, 'utf8').length;
    } catch {
      return 0;
    }
  })();
  // wait for the server's word on ctx_search (hybrid loaded, or keyword-only and why)
  const until = Date.now() + 120_000;
  let said = '';
  while (Date.now() < until) {
    try {
      said = readFileSync(log, 'utf8').slice(before);
    } catch {}
    if (/ctx_search (hybrid|keyword-only)/.test(said)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let i = 0; i < 20; i++)
    await client.callTool({
      name: 'ctx_search',
      arguments: { query: `how does the ${TOPICS[i % 10]} module work` },
    });
  const m = memory(transport.pid);
  await client.close();
  return { ...m, mode: /ctx_search hybrid/.test(said) ? 'hybrid' : 'keyword-only' };
}

const rows = [];
try {
  for (let r = 0; r < RUNS; r++)
    for (const qv of [false, true]) rows.push({ queryVectors: qv, ...(await measure(qv)) });
} finally {
  rmSync(home, { recursive: true, force: true });
}
const median = (xs) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`model ${MODEL}, ${RECORDS} records, ${RUNS} runs each (MB, median):`);
for (const qv of [false, true]) {
  const of = rows.filter((x) => x.queryVectors === qv);
  console.log(
    `  search.queryVectors=${qv}: ${of[0].mode}, RSS ${median(of.map((x) => x.rss)).toFixed(1)}, peak ${median(of.map((x) => x.peak)).toFixed(1)}`,
  );
}
