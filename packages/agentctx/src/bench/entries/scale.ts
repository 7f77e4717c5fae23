// The scale benchmark (issue 20): a store shaped like a year of daily use across a dozen
// repositories — 12 projects × 8,000 records plus 4,000 global ones (100,000; `--records 10000`
// keeps the shape at a tenth). Against it, in one run:
//   1. `agentctx consolidate` in one project: the first run (keyword only) and a rerun;
//   2. the hooks against `node -e 0`, interleaved: SessionStart, a short and a 55-word prompt;
//   3. one long session: prompt 1 vs prompt N of a session whose dedup set grows;
//   4. the MCP server: spawn → first ctx_search result, ctx_search on an open connection, and
//      its resident memory after 100 and 1,000 calls;
//   5. eight sessions at once (see scale/eight.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { BIN, benchEnv } from '../paths.js';
import { f1, loadAverage, median, timeNode } from '../proc.js';
import { eightPart } from '../scale/eight.js';
import { consolidationPart, hooksPart, mcpPart, sessionPart } from '../scale/parts.js';
import { buildStore, PROJECTS, reuseStore, shape } from '../scale/store.js';

const PARTS = ['consolidate', 'hooks', 'session', 'mcp', 'eight'] as const;
const cmd = defineCommand({
  name: 'bench:scale',
  summary:
    'A year of use across a dozen repositories: consolidation, hooks, a long session, MCP, eight sessions at once.',
  options: {
    records: { kind: 'int', default: 100000, help: 'records in the store' },
    rounds: { kind: 'int', default: 15, help: 'interleaved hook rounds' },
    'session-prompts': { kind: 'int', default: 1000, help: 'prompts of the long session' },
    spawns: { kind: 'int', default: 9, help: 'timed MCP spawns' },
    parts: { kind: 'choices', choices: PARTS, default: PARTS, help: 'the sections to run' },
    store: {
      kind: 'string',
      default: '',
      help: 'reuse a store kept by --keep (its session files removed first)',
      value: 'DIR',
    },
    bin: {
      kind: 'string',
      default: BIN,
      help: 'the agentctx bin (another build, for before/after figures)',
      value: 'PATH',
    },
    'hold-log': {
      kind: 'string',
      default: '',
      help: 'every process of the eight-session run logs its write-lock holds to FILE (waits to FILE.waits.jsonl)',
      value: 'FILE',
    },
    keep: { kind: 'flag', help: 'keep the store and print its folder' },
  },
});
const v = parseOrExit(cmd).values;
const parts = new Set(v.parts);
const dir = v.store || mkdtempSync(join(tmpdir(), 'agentctx-bench-scale-'));
const env = benchEnv(join(dir, 'home'));
const say = (line = '') => console.log(line);

try {
  const store = v.store ? reuseStore(v.bin, dir, env) : buildStore(v.bin, dir, env, v.records);
  const { perProject, global } = shape(v.records);
  say(
    `agentctx scale benchmark — node ${process.version}; ${store.n} records (${PROJECTS} projects × ${perProject} + ${global} global), built in ${f1(store.ms / 1000)} s; load average ${loadAverage()}`,
  );
  const repo = store.repos[0] as string;
  const c = {
    bin: v.bin,
    env,
    repo,
    say,
    rounds: v.rounds,
    sessionPrompts: v['session-prompts'],
    spawns: v.spawns,
  };
  if (parts.has('consolidate')) consolidationPart(c);
  if (parts.has('hooks')) hooksPart(c);
  if (parts.has('session')) sessionPart(c);
  if (parts.has('mcp')) await mcpPart(c);
  if (parts.has('eight')) await eightPart(c, store, v['hold-log']);
  const nodeBase = median(Array.from({ length: 7 }, () => timeNode(['-e', '0'], '', env, repo).ms));
  say(`node -e 0 (for the ratios above): ${f1(nodeBase)} ms`);
} finally {
  if (v.keep || v.store) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
