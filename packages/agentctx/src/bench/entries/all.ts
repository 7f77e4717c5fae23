// `npm run bench`: runs every benchmark against the built CLI and writes BENCHMARKS.md at the
// repository root. Each section is the benchmark's own printed output, under a note on how it
// was measured. Figures are medians of repeated, interleaved runs or ratios to `node -e 0`
// measured in the same run; nothing here is an assertion. Sections this run does not measure
// (`--only`, the installed size, notes written by hand under their own `## ` title) are kept as
// the previous BENCHMARKS.md had them.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { PACKAGE_ROOT } from '../paths.js';

const cmd = defineCommand({
  name: 'bench',
  summary:
    'Every benchmark against the built CLI; writes BENCHMARKS.md at the repository root (about 30 minutes).',
  options: {
    quick: { kind: 'flag', help: 'smaller sizes and fewer rounds' },
    'install-size': { kind: 'flag', help: 'measure the installed size too (the registry, minutes of npm)' },
    only: {
      kind: 'string',
      default: '',
      help: 'run only the sections whose title holds WORD (case-insensitive)',
      value: 'WORD',
    },
  },
});
const v = parseOrExit(cmd).values;
const root = PACKAGE_ROOT;
const repoRoot = join(root, '..', '..');
const quick = v.quick;
const installSize = v['install-size'];
const only = v.only.toLowerCase();
/** A benchmark's built entry. */
const bench = (name: string) => join('dist', 'bench', `${name}.js`);
// LoCoMo is read by path, never committed: AGENTCTX_LOCOMO, else ../shared/bench beside the repo
// (or beside the folder that holds it, for a git worktree one level further down).
const LOCOMO =
  process.env.AGENTCTX_LOCOMO ||
  [
    join(repoRoot, '..', 'shared', 'bench', 'locomo-dev.json'),
    join(repoRoot, '..', '..', 'shared', 'bench', 'locomo-dev.json'),
  ].find((p) => existsSync(p)) ||
  join(repoRoot, '..', 'shared', 'bench', 'locomo-dev.json');

const env = { ...process.env };
delete env.NODE_EXTRA_CA_CERTS; // a user's hook environment does not have it; it adds ~50 ms per start

function run(label: string, args: string[]): string {
  process.stderr.write(`bench: ${label}…\n`);
  const started = Date.now();
  const res = spawnSync(process.execPath, args, {
    cwd: root,
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  const out = (res.stdout || '').trimEnd();
  if (res.status !== 0)
    return `(failed with exit ${res.status} after ${seconds} s)\n${(res.stderr || '').slice(-2000)}`;
  return out;
}

/**
 * The scale benchmark at one size, then the figures that need its store kept: a consolidation
 * rerun that has a CLAUDE.md to check drift against, the MCP server's memory over 10,000 calls
 * and its cold start (spawn → first result) timed on its own. The store is removed after.
 */
function scaleRuns(records: string, more: string[]): string {
  // the 8-session run logs every process's write-lock holds, to say what each long wait was
  const holdLog = join(tmpdir(), `agentctx-bench-holds-${process.pid}-${records}.jsonl`);
  const first = run('scale', [
    bench('scale'),
    '--records',
    records,
    ...more,
    '--keep',
    '--hold-log',
    holdLog,
  ]);
  for (const f of [holdLog, `${holdLog}.waits.jsonl`]) rmSync(f, { force: true });
  const dir = /^kept (.+)$/m.exec(first)?.[1];
  if (!dir) return first;
  const store = ['--store', dir];
  const calls = quick ? '100,1000' : '100,1000,10000';
  const out = [
    first.replace(/^kept .+\n?/m, '').trimEnd(),
    '',
    '#### The same store: consolidation with a CLAUDE.md in the project (bench:claudemd)',
    run('CLAUDE.md', [bench('claudemd'), ...store]),
    run('drift rerun', [bench('scale'), ...store, '--records', records, '--parts', 'consolidate'])
      .replace(/^kept .+\n?/m, '')
      .trimEnd(),
    '',
    `#### The same store: MCP server memory over ${calls.split(',').at(-1)} calls (measure:mcp-growth)`,
    run('MCP memory', [bench('mcp-growth'), ...store, '--checkpoints', calls]),
    '',
    '#### The same store: MCP cold start (bench:mcp-start)',
    run('MCP start', [bench('mcp-start'), ...store, '--spawns', quick ? '7' : '21']),
  ];
  rmSync(dir, { recursive: true, force: true });
  return out.join('\n');
}

const build = spawnSync('npm', ['run', 'build'], { cwd: root, env, encoding: 'utf8' });
if (build.status !== 0) {
  process.stderr.write(build.stderr);
  process.exit(1);
}

const RETRIEVAL_HOW =
  'First the prompt hook itself (`--path hook`: `promptInjection`, the code and settings of `user-prompt-submit`, each query the first prompt of a session): R@3 = share of the relevant records injected; prec = relevant injected / all injected; inject = share of prompts that inject anything; tokens = mean injected tokens per prompt. Then the engine with its default settings and plain FTS5 BM25 (every query token OR-ed, no rerank): R@k = share of the relevant records in the top k; NDCG@10 with binary gains; MRR over the top 10. In-sample: the engine’s ranking knobs (TUNING in core/retrieval/rank.ts) and the hook’s candidate settings were chosen on both datasets whole, before these splits existed, so every engine, ctx_search and baseline row is in-sample on both splits. The weak-match filter (WEAK_MATCH in core/injection/injection.ts) and the boost for records that state a time when a question asks when (whenBoost, core/retrieval/when.ts) were chosen on the tuning split only: the validation rows are out-of-sample for those two choices. As in a store, a project keeps one current handover: a dataset’s older handovers are loaded superseded, so queries whose answer is an older handover cannot be answered by the hook (dev-memory: 4 queries name one among their relevant records, 3 in the tuning split, 1 in the validation split). The experiments tried and their figures: docs/RETRIEVAL.md.';
const splitRuns = (dataset: string) =>
  ['tune', 'validate'].map((split) => [bench('retrieval'), '--dataset', dataset, '--split', split]);

interface Section {
  title: string;
  how: string;
  args?: string[];
  runs?: string[][];
  produce?: () => string;
  skip?: boolean;
}
const sections: Section[] = [
  {
    title: 'Hook latency',
    how: 'Whole `agentctx hook …` processes (payload on stdin, as Claude Code runs them) against `node -e 0`, interleaved in one run; medians, and the ratio of each median to the `node -e 0` median. Stores of synthetic developer records seeded through the records repository.',
    args: [bench('hooks'), ...(quick ? ['--rounds', '7', '--sizes', '1000,10000'] : [])],
  },
  {
    title: 'Hook latency per agent',
    how: 'The SessionStart and prompt hooks of each agent adapter (`agentctx hook … --agent NAME`), as whole processes with that agent’s payload shape (Cursor’s as documented, the others’ as measured with their real clients), against `node -e 0`, interleaved in one run on a store of 1,000 records; medians. Cursor has no prompt hook that can inject.',
    args: [bench('agent-hooks'), ...(quick ? ['--rounds', '7'] : [])],
  },
  {
    title: 'MCP server',
    how: 'The built `agentctx mcp` spawned by the official SDK client over stdio: spawn → initialize → first `ctx_search` result (median of repeated spawns); then `ctx_search` round trips on one open connection.',
    args: [bench('mcp'), ...(quick ? ['--sizes', '10000', '--spawns', '5', '--queries', '100'] : [])],
  },
  {
    title: 'Consolidation',
    how: 'The built `agentctx consolidate` (scores, duplicate scan, drift scan, digest) as a whole process on a synthetic store.',
    args: [bench('consolidate'), quick ? '1000' : '1000,10000'],
  },
  {
    title: 'Scale: a year of use across a dozen repositories, long sessions, eight sessions at once',
    how: 'bench:scale (issue 20): a store of 12 projects × 8,000 records plus 4,000 global ones (and the same shape at 10,000), realistic text (a developer vocabulary plus each project’s own identifiers, Zipf-skewed), seeded through the records repository. In one run per size: `agentctx consolidate` in one project (first run, keyword only; rerun) with its steps; SessionStart and prompt hooks against `node -e 0`, interleaved; prompt 1–20 vs the last 20 of one long session (its dedup set growing); the MCP server: spawn → first `ctx_search`, `ctx_search` on an open connection, resident memory after 100 and 1,000 calls; then eight sessions at once for 40 s: eight MCP servers searching, prompt and Stop hooks in all eight, one consolidation (`--rebuild`) running, and a probe taking the write lock (BEGIN IMMEDIATE) every 20 ms to time each wait; every process of that run logs its write-lock holds (scripts/lock-holds.cjs, preloaded: its wall times include that), and each wait over 50 ms is attributed to what held the lock (src/bench/lock-attribution.ts). Then, on the same store: a consolidation rerun with a CLAUDE.md in the project (the drift step has something to check), the MCP server’s memory after 100, 1,000 and 10,000 calls from /proc (resident, its private part, file pages by mapping) and from V8, and its cold start timed on its own. Ratios are to `node -e 0` measured in the same run; the load average is printed with each part.',
    produce: () =>
      (quick
        ? [['10000', '--rounds', '7', '--session-prompts', '200', '--spawns', '5']]
        : [['10000'], ['100000']]
      )
        .map(([records = '10000', ...more]) => scaleRuns(records, more))
        .join('\n\n'),
  },
  {
    title: 'Retrieval quality: committed dev-memory dataset',
    how: `${RETRIEVAL_HOW} The dev-memory queries split in halves by a hash of the query id.`,
    runs: splitRuns('bench/dev-memory.json'),
  },
  ...(existsSync(LOCOMO)
    ? [
        {
          title: 'Retrieval quality: LoCoMo (conversations 1–5, dialog-turn level)',
          how: `${RETRIEVAL_HOW} LoCoMo splits by conversation: 1–3 tune, 4–5 validate. Read by path from \`../shared/bench/locomo-dev.json\` (not in the repository). Reference: a dense retriever (DRAGON) reaches R@5 0.567 at this level in the LoCoMo paper.`,
          runs: splitRuns(LOCOMO),
        },
      ]
    : []),
  ...(existsSync(LOCOMO)
    ? [
        {
          title: 'Semantic layer: keyword-only vs hybrid on LoCoMo (glove fixture)',
          how: 'The same queries through keyword-only retrieval and through hybrid (keyword candidates re-ranked by coverage tier and cosine, see core/retrieval/hybrid.ts) in one run. The embedder is the small GloVe fixture in test/fixtures/models (the production model, bge-small, cannot be downloaded here).',
          args: [
            bench('retrieval'),
            '--dataset',
            LOCOMO,
            '--hybrid',
            '--model-path',
            'test/fixtures/models',
            '--model',
            'glove-sif-384-q8',
          ],
        },
      ]
    : []),
  {
    title: 'Embedding backfill throughput',
    how: 'The consolidation backfill (embed and store) over a synthetic store with the glove fixture: records per second and peak RSS, then the consolidation steps.',
    args: [bench('backfill'), quick ? '2000' : '10000'],
  },
  {
    title: 'Token tax of a typical session',
    how: 'One project of the dev-memory dataset seeded into a store, `agentctx consolidate` run, then one session through the built hooks: SessionStart and each of the project’s queries as a prompt. Tokens are agentctx’s own conservative estimates, as recorded in `sessions.tokens_injected`. The value side: the script writes that session’s transcript in Claude Code’s format, where a simulated assistant answers each prompt from the records relevant to it (the dataset’s gold) that it has been shown and ignores the others; `agentctx extract` judges it with the “used” rule (core/usage) and `agentctx status` reports the share of the injected tokens that went to used records. The last line compares the rule’s verdicts with what the simulation did.',
    args: [bench('token-tax')],
  },
];

const parts = [
  '# Benchmarks',
  '',
  `Generated by \`npm run bench\` on ${new Date().toISOString().slice(0, 10)} — Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}).`,
  'Absolute times drift on shared machines; compare ratios and medians from the same run.',
  '',
];
const SIZE_TITLE = 'Installed size';
const SIZE_HOW =
  '`npm pack` of the package, then `npm install -g` of the tarball into an empty prefix with a fresh npm cache, with and without install scripts (`bench:install-size`; bytes of the files under the prefix), and what `agentctx init --semantic` installs into the agentctx home. The package has no dependency: nothing is fetched or compiled beyond the tarball.';
sections.push({
  title: SIZE_TITLE,
  how: SIZE_HOW,
  args: [bench('install-size')],
  // the registry and minutes of npm: measured on request, else kept from the last run
  skip: !installSize,
});

/** The previous file's `## ` sections by title, in their order. */
function previousSections(): Map<string, string> {
  const path = join(repoRoot, 'BENCHMARKS.md');
  const text = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const out = new Map<string, string>();
  for (const m of text.matchAll(/^## (.+)\n[\s\S]*?(?=^## |(?![\s\S]))/gm))
    out.set(m[1] as string, m[0].trimEnd());
  return out;
}

// Sections this run does not measure (`--only`, the installed size, notes written by hand
// under their own `## ` title) are kept as the previous file had them.
const prev = previousSections();
for (const s of sections) {
  const wanted = !s.skip && (!only || s.title.toLowerCase().includes(only));
  if (!wanted) {
    if (prev.has(s.title)) parts.push(prev.get(s.title) as string, '');
    continue;
  }
  const out = s.produce
    ? s.produce()
    : (s.runs ?? [s.args ?? []]).map((args) => run(s.title, args)).join('\n\n');
  parts.push(`## ${s.title}`, '', s.how, '', '```', out, '```', '');
}
const generated = new Set(sections.map((s) => s.title));
for (const [title, text] of prev) if (!generated.has(title)) parts.push(text, '');
writeFileSync(join(repoRoot, 'BENCHMARKS.md'), `${parts.join('\n').trimEnd()}\n`);
process.stderr.write('bench: wrote BENCHMARKS.md\n');
