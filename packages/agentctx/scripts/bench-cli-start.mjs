// Short CLI commands as whole processes against `node -e 0` of the same Node, interleaved:
// `agentctx --version`, `status` and `search` in a project of a small store. Wall medians, and
// the mean CPU time (user + system) of each, as a ratio to `node -e 0`'s. NODE_EXTRA_CA_CERTS
// and NODE_OPTIONS are removed. Run `npm run build` first.
// Usage: node scripts/bench-cli-start.mjs [--rounds 21] [--bin PATH] [--node PATH]
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt } from './bench-args.mjs';
import { median, timeProcess } from './bench-proc.mjs';
import { BIN, benchEnv } from './hook-bench-store.mjs';

const ROUNDS = Number(opt('rounds', '21'));
const bin = opt('bin', BIN);
const node = opt('node', process.execPath);
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-cli-'));
try {
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  const env = benchEnv(home);
  timeProcess('git', ['init', '-q', repo], '', env, dir);
  const run = (args) => timeProcess(node, [bin, ...args], '', env, repo);
  for (let i = 0; i < 20; i++)
    run([
      'record',
      '--type',
      'decision',
      '--title',
      `Webhook retry policy ${i}`,
      '--body',
      `Retries back off ${i} times.`,
    ]);
  const cases = {
    'node -e 0': ['-e', '0'],
    '--version': ['--version'],
    status: ['status'],
    'search webhook': ['search', 'webhook'],
  };
  const wall = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  const cpu = Object.fromEntries(Object.keys(cases).map((k) => [k, 0]));
  for (let i = 0; i < ROUNDS + 2; i++)
    for (const [name, args] of Object.entries(cases)) {
      const r = name === 'node -e 0' ? timeProcess(node, args, '', env, repo) : run(args);
      if (i < 2) continue; // caches written
      wall[name].push(r.ms);
      cpu[name] += r.cpu;
    }
  const base = median(wall['node -e 0']);
  const baseCpu = cpu['node -e 0'] / ROUNDS;
  console.log(
    `node ${timeProcess(node, ['--version'], '', env, repo).out.trim()}, ${ROUNDS} rounds, load ${loadavg()
      .map((x) => x.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| command | wall median ms (×) | CPU mean ms (×) |\n|---|---:|---:|');
  for (const name of Object.keys(cases)) {
    const w = median(wall[name]);
    const c = cpu[name] / ROUNDS;
    console.log(
      `| ${name} | ${w.toFixed(1)} (${(w / base).toFixed(2)}×) | ${c.toFixed(1)} (${(c / baseCpu).toFixed(2)}×) |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
