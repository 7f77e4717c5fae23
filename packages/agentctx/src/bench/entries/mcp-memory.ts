// What query-time vectors cost in memory: the resident set (VmRSS, and its peak VmHWM) of the
// BUILT `agentctx mcp` after a few ctx_search calls, keyword-only (the default) and with
// `search.queryVectors` on, over the same store whose records were embedded by consolidation.
// Linux only (reads /proc). Defaults to the glove fixture in test/fixtures/models; a real model
// (bge-small-en-v1.5) needs its files in --models.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit, usageError } from '../args.js';
import { connect } from '../mcp-client.js';
import { BIN, bareEnv, fakeRepo, PACKAGE_ROOT } from '../paths.js';
import { median } from '../proc.js';

const cmd = defineCommand({
  name: 'measure:mcp-memory',
  summary: "The MCP server's resident memory with and without query vectors (Linux).",
  options: {
    model: { kind: 'string', default: 'glove-sif-384-q8', help: 'the embedding model', value: 'NAME' },
    models: {
      kind: 'string',
      default: join(PACKAGE_ROOT, 'test', 'fixtures', 'models'),
      help: 'the folder holding it',
      value: 'DIR',
    },
    records: { kind: 'int', default: 200, help: 'records written through the CLI' },
    runs: { kind: 'int', default: 3, help: 'runs of each setting' },
  },
});
const v = parseOrExit(cmd).values;
if (process.platform !== 'linux') usageError(cmd, 'this reads /proc: Linux only');

const home = mkdtempSync(join(tmpdir(), 'agentctx-mcp-memory-'));
const repo = fakeRepo(join(home, 'repo'), null);
const env = bareEnv(home, {
  AGENTCTX_NO_CLAUDE_CLI: '1',
  AGENTCTX_EMBED_MODEL: v.model,
  AGENTCTX_MODEL_PATH: v.models,
});
const cli = (...args: string[]) => {
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

function memory(pid: number) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function measure(queryVectors: boolean) {
  cli('config', 'set', 'search.queryVectors', String(queryVectors));
  const { client, pid } = await connect({ bin: BIN, cwd: repo, env, stderr: 'inherit', name: 'measure' });
  const log = join(home, '.agentctx', 'logs', 'mcp.log');
  const logText = () => {
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  };
  const before = logText().length;
  // wait for the server's word on ctx_search (hybrid loaded, or keyword-only and why)
  const until = Date.now() + 120_000;
  let said = '';
  while (Date.now() < until) {
    said = logText().slice(before);
    if (/ctx_search (hybrid|keyword-only)/.test(said)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  for (let i = 0; i < 20; i++)
    await client.callTool({
      name: 'ctx_search',
      arguments: { query: `how does the ${TOPICS[i % 10]} module work` },
    });
  const m = memory(pid);
  await client.close();
  return { ...m, mode: /ctx_search hybrid/.test(said) ? 'hybrid' : 'keyword-only' };
}

const rows: { queryVectors: boolean; rss: number; peak: number; mode: string }[] = [];
try {
  for (let i = 0; i < v.records; i++) {
    const t = TOPICS[i % TOPICS.length] as string;
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
  const cons = JSON.parse(cli('consolidate', '--json')) as { embeddings?: { status?: string } };
  if (cons.embeddings?.status !== 'on') throw new Error(`embeddings off: ${JSON.stringify(cons.embeddings)}`);
  for (let r = 0; r < v.runs; r++)
    for (const qv of [false, true]) rows.push({ queryVectors: qv, ...(await measure(qv)) });
} finally {
  rmSync(home, { recursive: true, force: true });
}
console.log(`model ${v.model}, ${v.records} records, ${v.runs} runs each (MB, median):`);
for (const qv of [false, true]) {
  const of = rows.filter((x) => x.queryVectors === qv);
  console.log(
    `  search.queryVectors=${qv}: ${of[0]?.mode}, RSS ${median(of.map((x) => x.rss)).toFixed(1)}, peak ${median(of.map((x) => x.peak)).toFixed(1)}`,
  );
}
