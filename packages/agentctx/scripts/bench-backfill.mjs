#!/usr/bin/env node
// Embedding backfill throughput: N synthetic records (default 10000), then the built
// `agentctx consolidate` embeds them all with one model load. Prints records/s and peak RSS.
// Usage: node scripts/bench-backfill.mjs [N] [MODEL] [MODEL_DIR]   (run `npm run build` first)
// Defaults to the glove test fixture; asserts nothing; uses a throwaway AGENTCTX_HOME.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db as Database } from '../dist/sqlite.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = join(root, 'bin', 'agentctx.cjs');
const n = Number(process.argv[2] ?? 10000);
const model = process.argv[3] ?? 'glove-sif-384-q8';
const modelDir = process.argv[4] ?? join(root, 'test', 'fixtures', 'models');
const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-backfill-'));
const repo = join(home, 'repo');
mkdirSync(join(repo, '.git'), { recursive: true });
const env = {
  PATH: process.env.PATH,
  HOME: home,
  AGENTCTX_HOME: join(home, '.agentctx'),
  AGENTCTX_TMPDIR: home,
  CLAUDE_CONFIG_DIR: join(home, '.claude'),
  AGENTCTX_EMBED_MODEL: model,
  AGENTCTX_MODEL_PATH: modelDir,
};
const run = (args) => {
  const time = existsSync('/usr/bin/time') ? ['/usr/bin/time', '-f', '%M'] : [];
  const cmd = [...time, process.execPath, bin, ...args];
  const r = spawnSync(cmd[0], cmd.slice(1), { cwd: repo, env, encoding: 'utf8', timeout: 1_800_000 });
  const rssKb = time.length ? Number(r.stderr.trim().split('\n').at(-1)) : Number.NaN;
  return { ...r, rssKb };
};
try {
  const st = JSON.parse(run(['status', '--json']).stdout);
  const db = new Database(join(home, '.agentctx', 'agentctx.db'));
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, confidence, valid_from, recorded_at, source)
     VALUES (?, ?, ?, ?, ?, 'explicit', ?, ?, 'import')`,
  );
  const words =
    'cache worker queue parser module request response error test build config retry timeout index schema migration deploy'.split(
      ' ',
    );
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const w = (k) => words[(i * 7 + k * 13) % words.length];
      const at = new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString();
      ins.run(
        `R${String(i).padStart(8, '0')}`,
        st.project_id,
        i % 2 ? 'discovery' : 'decision',
        `The ${w(1)} ${w(2)} note ${i}`,
        `While changing the ${w(3)} we saw the ${w(4)} ${w(5)} fail after ${i % 97} retries; the ${w(6)} now checks it first.`,
        at,
        at,
      );
    }
  })();
  db.close();
  const t0 = performance.now();
  const r = run(['consolidate', '--json', '--budget-ms', '1800000']);
  const wall = performance.now() - t0;
  const out = JSON.parse(r.stdout);
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
