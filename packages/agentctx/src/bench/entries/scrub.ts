// Times the built `agentctx scrub` on a store never scrubbed: N records, 1% of them
// holding a secret (a third of those in a retired row), the full-text index and the word counts
// built. Prints the first pass (every row, rewrites, index merge, file rebuild), a rerun (nothing
// new), a run after 100 new clean rows, and what the scrub adds to `agentctx consolidate` once
// the store is clean; then counts the secrets left in the raw file bytes. Asserts nothing; uses a
// throwaway AGENTCTX_HOME.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit, sizesOperand } from '../args.js';
import { BIN, bareEnv, fakeRepo, storePath } from '../paths.js';
import { mulberry32, pick, type Rand } from '../prng.js';
import { type SeedRecord, seedStore } from '../seed.js';
import { serialId } from '../text.js';

const cmd = defineCommand({
  name: 'bench:scrub',
  summary: 'The built `agentctx scrub` on stores never scrubbed, 1% of records holding a secret.',
  options: {},
  positionals: { usage: '[N,N…] (store sizes; default 1000,20000)', max: 1 },
});
const { positionals } = parseOrExit(cmd);
const sizes = sizesOperand(cmd, positionals[0], [1000, 20000]);
const WORDS =
  'the cache worker queue handler module request response error test build config deploy retry index schema migration token parser'.split(
    ' ',
  );
const rand: Rand = mulberry32(7);
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const str = (n: number, a = ALNUM) => Array.from({ length: n }, () => pick(rand, [...a])).join('');
const sentence = (n: number) => Array.from({ length: n }, () => pick(rand, WORDS)).join(' ');
const SECRETS = [
  () => `ghp_${str(36)}`,
  () => `AKIA${str(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`,
  () => `sk-ant-api03-${str(60)}`,
  () => `xoxb-${str(12, '0123456789')}-${str(24)}`,
];
const withSecret = (v: string, i: number) =>
  [`export DB_PASSWORD=${v}`, `the token: ${v}`, `curl -H "Authorization: Bearer ${v}"`, `key ${v} in CI`][
    i % 4
  ];

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { cwd, env, encoding: 'utf8', timeout: 900_000 });
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out: r.stdout, err: r.stderr, code: r.status };
}

/** Records `from`…: a share holding a secret (pushed to `secrets`), a third of those history. */
function* records(projectId: string, from: number, n: number, secretShare: number, secrets: string[]) {
  const at = new Date(Date.UTC(2025, 0, 1)).toISOString();
  const base = { project_id: projectId, type: 'decision', valid_from: at, source: 'cli' } as const;
  for (let i = from; i < from + n; i++) {
    const id = serialId('01SCRUB', i);
    let body = sentence(40 + Math.floor(rand() * 60));
    const secret = rand() < secretShare;
    if (secret) {
      const v = (SECRETS[i % SECRETS.length] as () => string)();
      secrets.push(v);
      body = `${body} ${withSecret(v, i)}`;
    }
    // a third of the secret rows are history: retired, replaced by the next record
    if (secret && i % 3 === 0) {
      const head = `01SCRUB${String(i).padStart(18, '0')}H`;
      yield { ...base, id: head, title: sentence(6), body: `${sentence(20)} rotated` } satisfies SeedRecord;
      yield {
        ...base,
        id,
        title: sentence(8),
        body,
        superseded_at: at,
        superseded_by: head,
      } satisfies SeedRecord;
    } else yield { ...base, id, title: sentence(8), body } satisfies SeedRecord;
  }
}

for (const n of sizes) {
  const home = mkdtempSync(join(tmpdir(), 'agentctx-bench-scrub-'));
  const repo = fakeRepo(join(home, 'repo'), 'git@github.com:bench/scrub.git');
  const env = bareEnv(home);
  const st = JSON.parse(run(['status', '--json'], repo, env).out) as { project_id: string };
  const dbPath = storePath(home);
  const secrets: string[] = [];
  seedStore(dbPath, records(st.project_id, 0, n, 0.01, secrets), { termDf: true });
  // never scrubbed: scrub_state is empty, as a store written before the scrub existed is after
  // its migration (a schema rolled back by hand would not migrate forward again)
  const first = run(['scrub', '--json'], repo, env);
  const again = run(['scrub', '--json'], repo, env);
  seedStore(dbPath, records(st.project_id, n + 1, 100, 0, []));
  const more = run(['scrub', '--json'], repo, env);
  const c1 = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  const c2 = run(['consolidate', '--json', '--budget-ms', '600000'], repo, env);
  if ([first, again, more, c1, c2].some((r) => r.code !== 0)) {
    console.log(`${n} records: failed ${first.err}${again.err}${more.err}${c1.err}${c2.err}`);
    continue;
  }
  type Pass = { ms: number; scanned: number; changed: number; history_changed: number; vacuumed: boolean };
  const [a, b, c] = [first, again, more].map((r) => JSON.parse(r.out) as Pass) as [Pass, Pass, Pass];
  const s2 = (JSON.parse(c2.out) as { scrub: Pass }).scrub;
  const raw = ['', '-wal']
    .map((s) => dbPath + s)
    .filter((p) => existsSync(p))
    .map((p) => readFileSync(p).toString('latin1'))
    .join('\n')
    .toLowerCase();
  const kept = secrets.filter((v) => {
    for (let i = 0; i + 12 <= v.length; i++) if (raw.includes(v.slice(i, i + 12).toLowerCase())) return true;
    return false;
  }).length;
  console.log(
    `${n} records, ${secrets.length} secrets: first pass ${a.ms} ms inside (${first.ms.toFixed(0)} wall; ${a.scanned} rows, ${a.changed} rewritten, ${a.history_changed} history, vacuumed ${a.vacuumed}); ` +
      `rerun ${b.ms} ms (${b.scanned} rows); after 100 new rows ${c.ms} ms (${c.scanned} rows); ` +
      `in a clean consolidate ${s2.ms} ms (${s2.scanned} rows); secrets kept in the raw file: ${kept} of ${secrets.length}`,
  );
  rmSync(home, { recursive: true, force: true });
}
