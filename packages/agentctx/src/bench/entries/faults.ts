// `npm run bench:faults`: the fault suite (test/reliability) with its larger counts — 50 record
// lanes × 20 into a warm store, 20 kill -9 points each of consolidate (20,000 records), extract
// (a 100 MB transcript) and the embedding backfill (10,000 records), 7,000 fuzzed hook payloads,
// every damaged store, four projects side by side, the dashboard's hostile requests — then
// prints the figures the tests measured, by section, and the run's summary. Every figure comes
// from a passing assertion: a failing test fails the run. AGENTCTX_FAULTS_SEED=N reseeds.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { defineCommand, parseOrExit, usageError } from '../args.js';
import { fuzzSummary, summarise } from '../faults-report.js';
import { PACKAGE_ROOT } from '../paths.js';

const cmd = defineCommand({
  name: 'bench:faults',
  summary: 'The fault suite at bench sizes, and the figures its tests measured.',
  options: {
    full: {
      kind: 'flag',
      help: "issue 24's sizes: 20,000 records and 20 kill points for consolidate, a 100 MB transcript…",
    },
    'no-secrets': {
      kind: 'flag',
      help: 'leave out the secrets corpus (for a run split into several invocations)',
    },
    shard: {
      kind: 'string',
      default: '',
      help: 'run the k-th of n interleaved slices of the fuzzed hook payloads',
      value: 'k/n',
    },
    'fuzz-log': {
      kind: 'string',
      default: '',
      help: "append every fuzzed payload's outcome to FILE",
      value: 'FILE',
    },
    'fuzz-summary': {
      kind: 'string',
      default: '',
      help: 'print the fuzz figures of all the shards logged in FILE, and stop',
      value: 'FILE',
    },
  },
  positionals: { usage: '[vitest file filters…]', max: Number.POSITIVE_INFINITY },
});
const { values: v, positionals: filters } = parseOrExit(cmd);
const seed = Number(process.env.AGENTCTX_FAULTS_SEED) || 20_240_611;
/** A path as the caller typed it (npm runs scripts from the package folder). */
const fromCaller = (p: string) => resolve(process.env.INIT_CWD ?? process.cwd(), p);
if (v['fuzz-summary']) {
  process.stdout.write(fuzzSummary(fromCaller(v['fuzz-summary'])));
  process.exit(0);
}
if (v.shard && !/^\d+\/\d+$/.test(v.shard)) usageError(cmd, `--shard takes k/n (e.g. 2/4), not ${v.shard}`);
if (!existsSync(join(PACKAGE_ROOT, 'dist', 'cli.js'))) {
  process.stderr.write('bench:faults: build first (npm run build)\n');
  process.exit(2);
}
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const loadAtStart = load();
// the 1-minute load average every 30 s, for the run's range
const loads = [loadavg()[0] ?? 0];
const sampler = setInterval(() => loads.push(loadavg()[0] ?? 0), 30_000);
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-faults-'));
const figuresFile = join(dir, 'figures.jsonl');

const started = Date.now();
const vitest = join(PACKAGE_ROOT, '..', '..', 'node_modules', 'vitest', 'vitest.mjs');
// spawned (not spawnSync) so the load sampler keeps ticking
const status = await new Promise<number | string>((done) => {
  const child = spawn(
    process.execPath,
    [vitest, 'run', ...(filters.length ? filters : ['test/reliability']), '--maxWorkers=1'],
    {
      cwd: PACKAGE_ROOT,
      env: {
        ...process.env,
        AGENTCTX_FAULTS_BENCH: '1',
        ...(v.full ? { AGENTCTX_FAULTS_SIZE: 'full' } : {}),
        ...(v.shard ? { AGENTCTX_FAULTS_SHARD: v.shard } : {}),
        ...(v['fuzz-log'] ? { AGENTCTX_FAULTS_FUZZ_LOG: fromCaller(v['fuzz-log']) } : {}),
        AGENTCTX_FAULTS_FIGURES: figuresFile,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  child.on('exit', (code, signal) => done(code ?? signal ?? 'unknown'));
});
// secrets kept: the redaction gate's own seeded corpus (20 families × 2,000 generated secrets),
// which fails on any leak; its per-family lines are summed here
const secretsTest = 'test/unit/core/redaction/false-positives.test.ts';
const secretsRun = v['no-secrets']
  ? { stdout: '', status: 0 }
  : spawnSync(process.execPath, [vitest, 'run', secretsTest], {
      cwd: PACKAGE_ROOT,
      env: process.env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
clearInterval(sampler);
loads.push(loadavg()[0] ?? 0);
const figures = existsSync(figuresFile)
  ? readFileSync(figuresFile, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { section: string; name: string; value: number | string; unit?: string })
  : [];
rmSync(dir, { recursive: true, force: true });

const head =
  `fault suite, ${v.full ? 'full sizes' : 'bench mode'}: seed ${seed}, node ${process.version}, ${cpus().length} cores, ${minutes} min, ` +
  `load average ${loadAtStart} at the start, ${load()} at the end, 1-min ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} during` +
  (status === 0 ? '' : ` — FAILED (vitest exit ${status}); figures below are partial`);
const out = [head, ...summarise(figures)];
if (v['no-secrets']) out.push('  secrets kept: not measured in this run (--no-secrets)');
else {
  let kept = 0;
  let tried = 0;
  let families = 0;
  for (const m of `${secretsRun.stdout}`.matchAll(/^secret\s+\S+\s+leaked (\d+)\/(\d+)/gm)) {
    kept += Number(m[1]);
    tried += Number(m[2]);
    families++;
  }
  out.push(
    families > 0
      ? `  secrets kept: ${kept} of ${tried} generated (${families} families; ${secretsTest}${secretsRun.status === 0 ? '' : ', FAILED'})`
      : `  secrets kept: not measured (${secretsTest} printed no figures, exit ${secretsRun.status})`,
  );
}
out.push(
  '',
  `reproduce: npm run build && npm run bench:faults -- ${process.argv.slice(2).join(' ')}   (seed ${seed}; AGENTCTX_FAULTS_SEED=N for another)`,
);
process.stdout.write(`${out.join('\n')}\n`);
process.exit(status === 0 && secretsRun.status === 0 ? 0 : 1);
