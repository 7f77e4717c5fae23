#!/usr/bin/env node
// `npm run bench:faults`: the fault suite (test/reliability) with its larger counts — 50 record
// lanes × 20 into a warm store, 20 kill -9 points each of consolidate (20,000 records), extract
// (a 100 MB transcript) and the embedding backfill (10,000 records), 7,000 fuzzed hook payloads,
// every damaged store, four projects side by side, the dashboard's hostile requests — then
// prints the figures the tests measured, by section, and the run's summary. Every figure comes
// from a passing assertion: a failing test fails the run. Run `npm run build` first.
// With --full, the sizes of issue 24: 20,000 records and 20 kill points for consolidate, a
// 100 MB transcript and 20 points for extract, 10,000 records and 20 points for the backfill,
// 7,000 fuzzed hook payloads (the load and isolation runs are the same as without it).
// --no-secrets leaves out the secrets corpus (for a run split into several invocations).
// --shard k/n runs the k-th of n interleaved slices of the generated hook payloads, and
// --fuzz-log FILE appends every payload's outcome to FILE as it ends, so a long fuzz run can be
// split across invocations; --fuzz-summary FILE prints the figures of all the shards in FILE.
// Usage: node scripts/bench-faults.mjs [--full] [--no-secrets] [--shard k/n] [--fuzz-log FILE]
//                                      [vitest file filters…]
//        node scripts/bench-faults.mjs --fuzz-summary FILE
//        AGENTCTX_FAULTS_SEED=N to reseed.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const seed = Number(process.env.AGENTCTX_FAULTS_SEED) || 20_240_611;
const args = process.argv.slice(2);
/** A path as the caller typed it (npm runs scripts from the package folder). */
const fromCaller = (p) => resolve(process.env.INIT_CWD ?? process.cwd(), p);
/** The value after `flag`, removed from the filters. */
function option(flag) {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
}
const summaryFile = option('--fuzz-summary');
if (summaryFile) {
  process.stdout.write(fuzzSummary(fromCaller(summaryFile)));
  process.exit(0);
}
const full = args.includes('--full');
const withSecrets = !args.includes('--no-secrets');
const shard = option('--shard');
const fuzzLog = option('--fuzz-log');
if (shard !== undefined && !/^\d+\/\d+$/.test(shard)) {
  process.stderr.write(`bench:faults: --shard takes k/n (e.g. 2/4), not ${shard}\n`);
  process.exit(2);
}
const filters = args.filter(
  (a, i) =>
    a !== '--full' &&
    a !== '--no-secrets' &&
    !['--shard', '--fuzz-log'].includes(a) &&
    !['--shard', '--fuzz-log'].includes(args[i - 1]),
);

/** The hook-fuzz figures of every case logged in `file` (one JSON line per payload, from any shard). */
function fuzzSummary(file) {
  const byCase = new Map();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line);
      byCase.set(`${r.seed}:${r.i}`, r); // a case run twice (a shard rerun) counts once
    } catch {
      // a line cut short by a killed run
    }
  }
  const rows = [...byCase.values()];
  if (rows.length === 0) return `no payloads logged in ${file}\n`;
  const of = Math.max(...rows.map((r) => r.of));
  const seeds = [...new Set(rows.map((r) => r.seed))];
  const ms = rows.map((r) => r.ms).sort((a, b) => a - b);
  const rank = (p) => ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))];
  const hooks = [...new Set(rows.map((r) => r.hook))].sort();
  const problems = rows.filter((r) => r.problem);
  const lines = [
    `## Hook fuzzing (merged from ${file})`,
    `  payloads tried                                  ${rows.length} of ${of} (seed ${seeds.join(', ')})`,
    `  events covered                                  ${hooks.length}: ${hooks.join(', ')}`,
    `  largest payload                                 ${Math.round(Math.max(...rows.map((r) => r.bytes)) / 1024)} KB`,
    `  runs that printed hook JSON (context injected)  ${rows.filter((r) => r.injected).length}`,
    `  non-zero exits                                  ${rows.filter((r) => r.code !== 0).length}`,
    `  invalid stdout or any stderr                    ${problems.length}`,
    `  hook time p50 / p99 / max                       ${rank(50)} / ${rank(99)} / ${ms[ms.length - 1]} ms`,
    ...problems.slice(0, 10).map((r) => `  problem: case ${r.i} (${r.hook}, ${r.bytes} bytes): ${r.problem}`),
    '  (files written outside the home and store integrity are checked at the end of each shard: a shard that failed them failed its run)',
  ];
  return `${lines.join('\n')}\n`;
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadAtStart = load();
// the 1-minute load average every 30 s, for the run's range
const loads = [loadavg()[0]];
const sampler = setInterval(() => loads.push(loadavg()[0]), 30_000);
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-faults-'));
const figuresFile = join(dir, 'figures.jsonl');

if (!existsSync(join(root, 'dist', 'cli.js'))) {
  process.stderr.write('bench:faults: build first (npm run build)\n');
  process.exit(2);
}

const started = Date.now();
const vitest = join(root, '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
// spawned (not spawnSync) so the load sampler keeps ticking
const res = await new Promise((resolve) => {
  const child = spawn(
    process.execPath,
    [vitest, 'run', ...(filters.length ? filters : ['test/reliability']), '--maxWorkers=1'],
    {
      cwd: root,
      env: {
        ...process.env,
        AGENTCTX_FAULTS_BENCH: '1',
        ...(full ? { AGENTCTX_FAULTS_SIZE: 'full' } : {}),
        ...(shard ? { AGENTCTX_FAULTS_SHARD: shard } : {}),
        ...(fuzzLog ? { AGENTCTX_FAULTS_FUZZ_LOG: fromCaller(fuzzLog) } : {}),
        AGENTCTX_FAULTS_FIGURES: figuresFile,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  child.on('exit', (code, signal) => resolve({ status: code ?? signal }));
});
// secrets kept: the redaction gate's own seeded corpus (20 families × 2,000 generated secrets),
// which fails on any leak; its per-family lines are summed here
const secretsTest = 'test/unit/core/redaction/false-positives.test.ts';
const secretsRun = withSecrets
  ? spawnSync(process.execPath, [vitest, 'run', secretsTest], {
      cwd: root,
      env: process.env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    })
  : { stdout: '', status: 0 };
let secretsKept = 0;
let secretsTried = 0;
let families = 0;
for (const m of `${secretsRun.stdout}`.matchAll(/^secret\s+\S+\s+leaked (\d+)\/(\d+)/gm)) {
  secretsKept += Number(m[1]);
  secretsTried += Number(m[2]);
  families++;
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
clearInterval(sampler);
loads.push(loadavg()[0]);

const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  : [];
rmSync(dir, { recursive: true, force: true });

const show = (f) => `${f.value}${f.unit ? ` ${f.unit}` : ''}`;
const out = [];
out.push(
  `fault suite, ${full ? 'full sizes' : 'bench mode'}: seed ${seed}, node ${process.version}, ${cpus().length} cores, ${minutes} min, ` +
    `load average ${loadAtStart} at the start, ${load()} at the end, 1-min ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during` +
    (res.status === 0 ? '' : ` — FAILED (vitest exit ${res.status}); figures below are partial`),
);
const sections = [...new Set(figures.filter((f) => f.section !== 'Summary').map((f) => f.section))];
for (const s of sections) {
  out.push('', `## ${s}`);
  for (const f of figures.filter((x) => x.section === s)) out.push(`  ${f.name.padEnd(72, ' ')} ${show(f)}`);
}

// the summary: numbers that share a name before " (" are added up, their parts listed
out.push('', '## Summary');
const summary = figures.filter((f) => f.section === 'Summary');
const groups = new Map();
for (const f of summary) {
  const name = f.name.replace(/ \(.*\)$/, '');
  if (!groups.has(name)) groups.set(name, []);
  groups.get(name).push(f);
}
for (const [name, parts] of groups) {
  const numeric = parts.every((p) => typeof p.value === 'number');
  const value = numeric ? parts.reduce((n, p) => n + p.value, 0) : parts.map((p) => p.value).join('; ');
  const detail =
    numeric && parts.length > 1
      ? ` (${parts.map((p) => `${p.value} ${/\((.*)\)$/.exec(p.name)?.[1] ?? ''}`.trim()).join(', ')})`
      : '';
  out.push(`  ${name}: ${value}${detail}`);
}
if (!withSecrets) out.push('  secrets kept: not measured in this run (--no-secrets)');
else
  out.push(
    families > 0
      ? `  secrets kept: ${secretsKept} of ${secretsTried} generated (${families} families; ${secretsTest}${secretsRun.status === 0 ? '' : ', FAILED'})`
      : `  secrets kept: not measured (${secretsTest} printed no figures, exit ${secretsRun.status})`,
  );
out.push(
  '',
  `reproduce: npm run build && npm run bench:faults -- ${args.join(' ')}   (seed ${seed}; AGENTCTX_FAULTS_SEED=N for another)`,
);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(res.status === 0 && secretsRun.status === 0 ? 0 : 1);
