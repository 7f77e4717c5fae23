// Where a hook's time goes: runs the built `agentctx hook <event>` against the bench:hooks store
// with V8's CPU profiler, many times, and prints milliseconds per run spent in each phase
// (inclusive) and in the busiest functions (self). The profiler slows everything by roughly a
// third: compare phases with each other, and use bench:hooks for real timings.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { LONG, prepareStore, SHORT } from '../hook-store.js';
import { BIN } from '../paths.js';
import { readProfile, timeByFunction } from '../profile.js';

const cmd = defineCommand({
  name: 'profile:hook',
  summary: "A hook's phases under V8's CPU profiler, in ms per run.",
  options: {
    records: { kind: 'int', default: 10000, help: 'records in the store' },
    runs: { kind: 'int', default: 30, help: 'profiled runs' },
    prompt: { kind: 'choice', choices: ['short', 'long'], default: 'short', help: 'the prompt' },
    event: {
      kind: 'choice',
      choices: ['user-prompt-submit', 'session-start'],
      default: 'user-prompt-submit',
      help: 'the hook',
    },
  },
});
const { records: RECORDS, runs: RUNS, prompt, event: EVENT } = parseOrExit(cmd).values;
const PROMPT = prompt === 'long' ? LONG : SHORT;

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
] as const;

const dir = mkdtempSync(join(tmpdir(), 'agentctx-profile-hook-'));
try {
  const { env, repo, load } = prepareStore(dir, RECORDS);
  const profiles = join(dir, 'profiles');
  const payload = (i: number | string) =>
    JSON.stringify({
      session_id: `profile-${i}`,
      transcript_path: '/dev/null',
      cwd: repo,
      hook_event_name: EVENT === 'session-start' ? 'SessionStart' : 'UserPromptSubmit',
      source: 'startup',
      prompt: PROMPT,
    });
  const run = (i: number | string, extra: string[]) =>
    spawnSync(process.execPath, [...extra, BIN, 'hook', EVENT], { input: payload(i), env, cwd: repo });
  for (let i = 0; i < 2; i++) run(`warm-${i}`, []); // writes the code cache, as a first hook would
  for (let i = 0; i < RUNS; i++)
    run(i, ['--cpu-prof', '--cpu-prof-interval', '50', '--cpu-prof-dir', profiles]);

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const file of readdirSync(profiles)) {
    const t = timeByFunction(
      readProfile(join(profiles, file)),
      (f) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}`,
      (f) => f.functionName,
    );
    total += t.total / RUNS;
    for (const [k, v] of t.self) self.set(k, (self.get(k) ?? 0) + v / RUNS);
    for (const [k, v] of t.inclusive) inclusive.set(k, (inclusive.get(k) ?? 0) + v / RUNS);
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
