#!/usr/bin/env node
// Time the built `agentctx consolidate` on a synthetic store of N records (default 1000,10000).
// Usage: node scripts/bench-consolidate.mjs [N,N,...]   (run `npm run build` first)
// Prints figures; asserts nothing. Uses a throwaway AGENTCTX_HOME, never ~/.agentctx.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Db as Database } from '../dist/sqlite.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bin = ['agentctx.cjs', 'agentctx.js'].map((f) => join(root, 'bin', f)).find((p) => existsSync(p));
const sizes = (process.argv[2] ?? '1000,10000').split(',').map(Number);
const TYPES = ['decision', 'convention', 'preference', 'discovery', 'bugfix', 'discovery', 'bugfix'];
// a Zipf-like vocabulary: a few words are everywhere, most are rare (as in real notes)
const VOCAB = Array.from({ length: 30000 }, (_, i) => `w${(i * 2654435761) % 1000003}`);
const COMMON = 'the cache worker queue handler module request response error test build config'.split(' ');

let seed = 42;
// mulberry32: a small PRNG that stays exact in doubles
const rand = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let x = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x;
  return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
};
const pick = (a) => a[Math.floor(rand() * a.length)];
const zipf = () => VOCAB[Math.min(VOCAB.length - 1, Math.floor(VOCAB.length ** rand()) - 1)];
const sentence = (n) => Array.from({ length: n }, () => (rand() < 0.3 ? pick(COMMON) : zipf())).join(' ');

function run(args, cwd, env) {
  const env2 = { ...env };
  delete env2.NODE_EXTRA_CA_CERTS;
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [bin, ...args], {
    cwd,
    env: env2,
    encoding: 'utf8',
    timeout: 600_000,
  });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: r.stdout, err: r.stderr, code: r.status };
}

for (const n of sizes) {
  const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-'));
  const repo = join(home, 'repo');
  mkdirSync(join(repo, '.git'), { recursive: true });
  writeFileSync(join(repo, '.git', 'config'), '[remote "origin"]\n\turl = git@github.com:bench/repo.git\n');
  writeFileSync(join(repo, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  writeFileSync(
    join(repo, 'CLAUDE.md'),
    `# Bench\n\n${Array.from({ length: 40 }, () => `- ${sentence(10)}`).join('\n')}\n`,
  );
  const env = {
    ...process.env,
    HOME: home,
    AGENTCTX_HOME: join(home, '.agentctx'),
    CLAUDE_CONFIG_DIR: join(home, '.claude'),
  };
  const st = JSON.parse(run(['status', '--json'], repo, env).out);
  const db = new Database(join(home, '.agentctx', 'agentctx.db'));
  const ins = db.prepare(
    `INSERT INTO records (id, project_id, type, title, body, scope, confidence, reinforce_count, valid_from, recorded_at, source, access_count, last_accessed)
     VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, 'llm_extraction', ?, ?)`,
  );
  const t0 = Date.UTC(2025, 0, 1);
  const texts = [];
  db.transaction(() => {
    for (let i = 0; i < n; i++) {
      const type =
        TYPES[(i % 50 === 0 || i % 50 === 25) && i > 10 ? (i - 7) % TYPES.length : i % TYPES.length];
      const global = type === 'preference' && i % 2 === 0;
      const at = new Date(t0 + i * 3_600_000).toISOString();
      // 2% exact copies (case/punctuation changed) and 2% paraphrases of the record 10 before
      const copyOf = i > 10 && i % 50 === 0 ? 'exact' : i > 10 && i % 50 === 25 ? 'near' : null;
      let title = sentence(8);
      let body = sentence(40 + Math.floor(rand() * 60));
      if (copyOf) {
        const src = texts[i - 7];
        title = copyOf === 'exact' ? `${src.title.toUpperCase()}.` : `${src.title} again`;
        body = copyOf === 'exact' ? src.body : `${src.body.split(' ').slice(3).join(' ')} ${sentence(4)}`;
      }
      texts.push({ title, body });
      ins.run(
        `01BENCH${String(i).padStart(19, '0')}`,
        global ? '_global' : st.project_id,
        type,
        title,
        body,
        global ? 'global' : 'project',
        pick(['explicit', 'inferred', 'reinforced']),
        at,
        at,
        Math.floor(rand() * 5),
        rand() < 0.3 ? at : null,
      );
    }
  })();
  db.close();
  const first = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  const second = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  if (first.code !== 0 || second.code !== 0) {
    console.log(`${n} records: failed (exit ${first.code}/${second.code}) ${first.err}${second.err}`);
    continue;
  }
  const s1 = JSON.parse(first.out);
  const s2 = JSON.parse(second.out);
  const steps = (s) => s.steps.map((x) => `${x.name} ${x.ms}ms`).join(', ');
  console.log(
    `${n} records: first run ${first.ms.toFixed(0)} ms wall (${s1.duration_ms} ms inside: ${steps(s1)}); ` +
      `rerun ${second.ms.toFixed(0)} ms wall (${s2.duration_ms} ms: ${steps(s2)}); merged ${s1.merged}, candidates ${s1.merge_candidates}, digest ${s1.digest.tokens} tokens`,
  );
  rmSync(home, { recursive: true, force: true });
}
