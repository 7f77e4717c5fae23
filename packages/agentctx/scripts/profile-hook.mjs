// Where a hook's time goes: runs the built `agentctx hook <event>` against the bench:hooks store
// with V8's CPU profiler, many times, and prints milliseconds per run spent in each phase
// (inclusive) and in the busiest functions (self). The profiler slows everything by roughly a
// third: compare phases with each other, and use bench:hooks for real timings.
// Usage: node scripts/profile-hook.mjs [--records 10000] [--runs 30] [--prompt short|long]
//                                      [--event user-prompt-submit|session-start]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt } from './bench-args.mjs';
import { BIN, LONG, prepareStore, SHORT } from './hook-bench-store.mjs';

const RECORDS = Number(opt('records', '10000'));
const RUNS = Number(opt('runs', '30'));
const PROMPT = opt('prompt', 'short') === 'long' ? LONG : SHORT;
const EVENT = opt('event', 'user-prompt-submit');

/** The phases of a hook, by the functions that do them (inclusive time). */
const PHASES = [
  ['load the bundle (bin, code cache)', 'runHookBundle'],
  ['the hook, after its bundle loaded', 'runHandler'],
  ['read stdin', 'readStdin'],
  ['session file and context', 'createHookContext'],
  ['open the store', 'openHookStore'],
  ['  the connection (node:sqlite)', 'Db'],
  ['  connection setup', 'openWith'],
  ['resolve the project', 'resolveProject'],
  ['search', 'search'],
  ['  document frequencies', 'documentFrequencies'],
  ['  FTS5 BM25 candidates', 'ftsCandidates'],
  ['  re-rank', 'rerank'],
  ['format the injection', 'formatInjection'],
  ['write the session file', 'updateSessionState'],
  ['read the digest', 'readDigest'],
];

const dir = mkdtempSync(join(tmpdir(), 'agentctx-profile-hook-'));
try {
  const { env, repo, load } = prepareStore(dir, RECORDS);
  const profiles = join(dir, 'profiles');
  const payload = (i) =>
    JSON.stringify({
      session_id: `profile-${i}`,
      transcript_path: '/dev/null',
      cwd: repo,
      hook_event_name: EVENT === 'session-start' ? 'SessionStart' : 'UserPromptSubmit',
      source: 'startup',
      prompt: PROMPT,
    });
  const run = (i, extra) =>
    spawnSync(process.execPath, [...extra, BIN, 'hook', EVENT], { input: payload(i), env, cwd: repo });
  for (let i = 0; i < 2; i++) run(`warm-${i}`, []); // writes the code cache, as a first hook would
  for (let i = 0; i < RUNS; i++)
    run(i, ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', profiles]);

  const self = new Map();
  const inclusive = new Map();
  let total = 0;
  for (const file of readdirSync(profiles)) {
    const p = JSON.parse(readFileSync(join(profiles, file), 'utf8'));
    const byId = new Map(p.nodes.map((n) => [n.id, n]));
    const parent = new Map();
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    for (let i = 0; i < p.samples.length; i++) {
      const ms = (p.timeDeltas[i + 1] ?? 0) / 1000 / RUNS;
      total += ms;
      const leaf = byId.get(p.samples[i]).callFrame;
      const key = `${leaf.functionName || '(anonymous)'} ${leaf.url.split('/').pop()}`;
      self.set(key, (self.get(key) ?? 0) + ms);
      const seen = new Set();
      for (let id = p.samples[i]; id !== undefined; id = parent.get(id)) {
        const name = byId.get(id).callFrame.functionName;
        if (seen.has(name)) continue;
        seen.add(name);
        inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
      }
    }
  }
  console.log(
    `agentctx hook ${EVENT}${EVENT === 'user-prompt-submit' ? ` (${PROMPT === LONG ? '55-word' : 'short'} prompt)` : ''}, ${RECORDS} records (${load}), ${RUNS} profiled runs; ms per run, profiler included`,
  );
  console.log(`  whole process (sampled): ${total.toFixed(2)}`);
  for (const [label, fn] of PHASES) {
    const ms = inclusive.get(fn);
    if (ms !== undefined) console.log(`  ${label.padEnd(36)} ${ms.toFixed(2).padStart(6)}`);
  }
  console.log('  busiest functions (self time):');
  for (const [k, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 12))
    console.log(`    ${v.toFixed(2).padStart(6)}  ${k}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
