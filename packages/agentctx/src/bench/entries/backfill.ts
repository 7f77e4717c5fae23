// Embedding backfill throughput: N synthetic records, then the built `agentctx consolidate`
// embeds them all with one model load. Prints records/s and peak RSS. Defaults to the glove test
// fixture; asserts nothing; uses a throwaway AGENTCTX_HOME.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit, sizesOperand } from '../args.js';
import { BIN, bareEnv, fakeRepo, PACKAGE_ROOT, storePath } from '../paths.js';
import { type SeedRecord, seedStore } from '../seed.js';
import { serialId } from '../text.js';

const cmd = defineCommand({
  name: 'bench:backfill',
  summary: 'Embedding backfill throughput of the built consolidation.',
  options: {},
  positionals: {
    usage: '[N] [MODEL] [MODEL_DIR] (default 10000, glove-sif-384-q8, the test fixture)',
    max: 3,
  },
});
const { positionals } = parseOrExit(cmd);
const [n = 10000] = sizesOperand(cmd, positionals[0], [10000]);
const model = positionals[1] ?? 'glove-sif-384-q8';
const modelDir = positionals[2] ?? join(PACKAGE_ROOT, 'test', 'fixtures', 'models');
const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-backfill-'));
const repo = fakeRepo(join(home, 'repo'), null);
const env = bareEnv(home, {
  AGENTCTX_TMPDIR: home,
  AGENTCTX_EMBED_MODEL: model,
  AGENTCTX_MODEL_PATH: modelDir,
});
const run = (args: string[]) => {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%M'] : [];
  const [command = process.execPath, ...rest] = [...time, process.execPath, BIN, ...args];
  const r = spawnSync(command, rest, { cwd: repo, env, encoding: 'utf8', timeout: 1_800_000 });
  const rssKb = time.length ? Number(r.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return { ...r, rssKb };
};
const WORDS =
  'cache worker queue parser module request response error test build config retry timeout index schema migration deploy'.split(
    ' ',
  );
function* records(projectId: string): Generator<SeedRecord> {
  for (let i = 0; i < n; i++) {
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    yield {
      id: serialId('R', i),
      project_id: projectId,
      type: i % 2 ? 'discovery' : 'decision',
      title: `The ${w(1)} ${w(2)} note ${i}`,
      body: `While changing the ${w(3)} we saw the ${w(4)} ${w(5)} fail after ${i % 97} retries; the ${w(6)} now checks it first.`,
      valid_from: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    };
  }
}
try {
  const st = JSON.parse(run(['status', '--json']).stdout) as { project_id: string };
  seedStore(storePath(home), records(st.project_id));
  const t0 = performance.now();
  const r = run(['consolidate', '--json', '--budget-ms', '1800000']);
  const wall = performance.now() - t0;
  const out = JSON.parse(r.stdout) as {
    embeddings: { embedded: number; model: string; store: string; ms: number };
    steps: { name: string; ms: number }[];
  };
  const e = out.embeddings;
  process.stdout.write(
    `backfill ${e.embedded} records with ${e.model} (${e.store} store): ${e.ms} ms embedding, ` +
      `${Math.round((e.embedded / e.ms) * 1000)} records/s; whole consolidate ${Math.round(wall)} ms; ` +
      `peak RSS ${Number.isNaN(r.rssKb) ? 'n/a' : `${Math.round(r.rssKb / 1024)} MB`}\n` +
      `steps ${out.steps.map((s) => `${s.name} ${s.ms} ms`).join(', ')}\n`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
