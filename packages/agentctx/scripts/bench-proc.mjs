// Timing whole processes for the benchmark scripts: wall time and the child's CPU time.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** CPU ms of this process's finished children so far (Linux: /proc/self/stat, 10 ms ticks). */
function childCpuMs() {
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

/** Run `node args…` to its end: wall ms, CPU ms (user + system), stdout. Throws on a non-zero exit. */
export function timeProcess(node, args, input, env, cwd) {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(node, args, { input, env, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${node} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: childCpuMs() - c0, out: r.stdout };
}
