// Times the built `agentctx consolidate` on a synthetic store of N records (first run and rerun,
// with the steps it reports). Prints figures; asserts nothing. Uses a throwaway AGENTCTX_HOME.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecordType } from '../../shared/types.js';
import { defineCommand, parseOrExit, sizesOperand } from '../args.js';
import { BIN, benchEnv, fakeRepo, storePath } from '../paths.js';
import { mulberry32, pick, zipf } from '../prng.js';
import { type SeedRecord, seedStore } from '../seed.js';
import { serialId } from '../text.js';

const cmd = defineCommand({
  name: 'bench:consolidate',
  summary: 'The built `agentctx consolidate` on synthetic stores of N records.',
  options: {},
  positionals: { usage: '[N,N…] (store sizes; default 1000,10000)', max: 1 },
});
const { positionals } = parseOrExit(cmd);
const sizes = sizesOperand(cmd, positionals[0], [1000, 10000]);
const TYPES: readonly RecordType[] = [
  'decision',
  'convention',
  'preference',
  'discovery',
  'bugfix',
  'discovery',
  'bugfix',
];
// a Zipf-like vocabulary: a few words are everywhere, most are rare (as in real notes)
const VOCAB = Array.from({ length: 30000 }, (_, i) => `w${(i * 2654435761) % 1000003}`);
const COMMON = 'the cache worker queue handler module request response error test build config'.split(' ');
const rand = mulberry32(42);
const sentence = (n: number) =>
  Array.from({ length: n }, () => (rand() < 0.3 ? pick(rand, COMMON) : zipf(rand, VOCAB))).join(' ');

interface Summary {
  duration_ms: number;
  steps: { name: string; ms: number }[];
  merged: number;
  merge_candidates: number;
  digest: { tokens: number };
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 600_000 });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: r.stdout, err: r.stderr, code: r.status };
}

/** N records of one project: 2% exact copies (case and punctuation changed), 2% paraphrases. */
function* records(projectId: string, n: number): Generator<SeedRecord> {
  const t0 = Date.UTC(2025, 0, 1);
  const texts: { title: string; body: string }[] = [];
  for (let i = 0; i < n; i++) {
    const type = TYPES[
      (i % 50 === 0 || i % 50 === 25) && i > 10 ? (i - 7) % TYPES.length : i % TYPES.length
    ] as RecordType;
    const global = type === 'preference' && i % 2 === 0;
    const at = new Date(t0 + i * 3_600_000).toISOString();
    const copyOf = i > 10 && i % 50 === 0 ? 'exact' : i > 10 && i % 50 === 25 ? 'near' : null;
    let title = sentence(8);
    let body = sentence(40 + Math.floor(rand() * 60));
    const src = texts[i - 7];
    if (copyOf && src) {
      title = copyOf === 'exact' ? `${src.title.toUpperCase()}.` : `${src.title} again`;
      body = copyOf === 'exact' ? src.body : `${src.body.split(' ').slice(3).join(' ')} ${sentence(4)}`;
    }
    texts.push({ title, body });
    yield {
      id: serialId('01BENCH', i),
      project_id: global ? '_global' : projectId,
      type,
      title,
      body,
      scope: global ? 'global' : 'project',
      confidence: pick(rand, ['explicit', 'inferred', 'reinforced'] as const),
      valid_from: at,
      source: 'llm_extraction',
      // read a few times (30% of them), as the hooks and the MCP server count reads
      accesses: rand() < 0.3 ? Math.floor(rand() * 5) : 0,
    };
  }
}

for (const n of sizes) {
  const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-'));
  const repo = fakeRepo(join(home, 'repo'), 'git@github.com:bench/repo.git');
  writeFileSync(
    join(repo, 'CLAUDE.md'),
    `# Bench\n\n${Array.from({ length: 40 }, () => `- ${sentence(10)}`).join('\n')}\n`,
  );
  const env = benchEnv(home);
  const st = JSON.parse(run(['status', '--json'], repo, env).out) as { project_id: string };
  seedStore(storePath(home), records(st.project_id, n));
  const first = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  const second = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  if (first.code !== 0 || second.code !== 0) {
    console.log(`${n} records: failed (exit ${first.code}/${second.code}) ${first.err}${second.err}`);
    continue;
  }
  const s1 = JSON.parse(first.out) as Summary;
  const s2 = JSON.parse(second.out) as Summary;
  const steps = (s: Summary) => s.steps.map((x) => `${x.name} ${x.ms}ms`).join(', ');
  console.log(
    `${n} records: first run ${first.ms.toFixed(0)} ms wall (${s1.duration_ms} ms inside: ${steps(s1)}); ` +
      `rerun ${second.ms.toFixed(0)} ms wall (${s2.duration_ms} ms: ${steps(s2)}); merged ${s1.merged}, candidates ${s1.merge_candidates}, digest ${s1.digest.tokens} tokens`,
  );
  rmSync(home, { recursive: true, force: true });
}
