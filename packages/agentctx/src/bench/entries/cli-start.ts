// Short CLI commands as whole processes against `node -e 0` of the same Node, interleaved:
// `agentctx --version`, `status` and `search` in a project of a small store. Wall medians, and
// the mean CPU time (user + system) of each, as a ratio to `node -e 0`'s. NODE_EXTRA_CA_CERTS
// and NODE_OPTIONS are removed.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { BIN, benchEnv } from '../paths.js';
import { loadAverage, median, type Timed, timeProcess } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:cli-start',
  summary: 'Short CLI commands against `node -e 0`, wall and CPU.',
  options: {
    rounds: { kind: 'int', default: 21, help: 'measured rounds (after two of warm-up)' },
    bin: { kind: 'string', default: BIN, help: 'the agentctx bin to time', value: 'PATH' },
    node: { kind: 'string', default: process.execPath, help: 'the Node to run it with', value: 'PATH' },
  },
});
const { rounds: ROUNDS, bin, node } = parseOrExit(cmd).values;
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-cli-'));
try {
  const home = join(dir, 'home');
  const repo = join(dir, 'repo');
  const env = benchEnv(home);
  timeProcess('git', ['init', '-q', repo], '', env, dir);
  const run = (args: string[]) => timeProcess(node, [bin, ...args], '', env, repo);
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
  const cases: Record<string, string[]> = {
    'node -e 0': ['-e', '0'],
    '--version': ['--version'],
    status: ['status'],
    'search webhook': ['search', 'webhook'],
  };
  const wall = new Map(Object.keys(cases).map((k) => [k, [] as number[]]));
  const cpu = new Map(Object.keys(cases).map((k) => [k, 0]));
  for (let i = 0; i < ROUNDS + 2; i++)
    for (const [name, args] of Object.entries(cases)) {
      const r: Timed = name === 'node -e 0' ? timeProcess(node, args, '', env, repo) : run(args);
      if (i < 2) continue; // caches written
      wall.get(name)?.push(r.ms);
      cpu.set(name, (cpu.get(name) ?? 0) + r.cpu);
    }
  const base = median(wall.get('node -e 0') ?? []);
  const baseCpu = (cpu.get('node -e 0') ?? 0) / ROUNDS;
  console.log(
    `node ${timeProcess(node, ['--version'], '', env, repo).out.trim()}, ${ROUNDS} rounds, load ${loadAverage()}\n`,
  );
  console.log('| command | wall median ms (×) | CPU mean ms (×) |\n|---|---:|---:|');
  for (const name of Object.keys(cases)) {
    const w = median(wall.get(name) ?? []);
    const c = (cpu.get(name) ?? 0) / ROUNDS;
    console.log(
      `| ${name} | ${w.toFixed(1)} (${(w / base).toFixed(2)}×) | ${c.toFixed(1)} (${(c / baseCpu).toFixed(2)}×) |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
