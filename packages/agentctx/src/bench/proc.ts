// Timing whole processes for the benchmarks, and the statistics every one of them prints.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** The median (NaN for no samples). */
export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  if (s.length === 0) return Number.NaN;
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

/** The sample at rank ⌊q·n⌋ (NaN for no samples). */
export function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? Number.NaN : (s[Math.min(s.length - 1, Math.floor(q * s.length))] as number);
}

export const f1 = (x: number | undefined): string => (x ?? Number.NaN).toFixed(1);

/** The three load averages, two decimals each. */
export const loadAverage = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

/** CPU ms of this process's finished children so far (Linux: /proc/self/stat, 10 ms ticks). */
function childCpuMs(): number {
  try {
    const f = (readFileSync('/proc/self/stat', 'utf8').split(') ')[1] ?? '').split(' ');
    return (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    return Number.NaN;
  }
}

export interface Timed {
  ms: number;
  /** CPU ms (user + system) of the child; NaN off Linux. */
  cpu: number;
  out: string;
}

/** Run `command args…` to its end: wall ms, CPU ms, stdout. Throws on a non-zero exit. */
export function timeProcess(
  command: string,
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Timed {
  const c0 = childCpuMs();
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { input, env, cwd, encoding: 'utf8', maxBuffer: 1 << 26 });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, cpu: childCpuMs() - c0, out: r.stdout };
}

/** `node args…` with this process's Node, timed. */
export const timeNode = (
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Timed => timeProcess(process.execPath, args, input, env, cwd);

/** `node args…` without blocking this process (other work goes on meanwhile): wall ms and stdout. */
export function timeNodeAsync(
  args: readonly string[],
  input: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ ms: number; out: string }> {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const c = spawn(process.execPath, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    c.stdout.on('data', (d: Buffer) => {
      out += d;
    });
    c.on('error', reject);
    c.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}`));
      else resolve({ ms, out });
    });
    c.stdin.end(input);
  });
}

export interface Memory {
  rss: number;
  anon: number;
  file: number;
}

/** Resident memory of a process, MB: all of it, its private (anonymous) part, its file pages. */
export function memoryOf(pid: number): Memory {
  const s = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (k: string) => Number(new RegExp(`${k}:\\s+(\\d+)`).exec(s)?.[1] ?? 0) / 1024;
  return { rss: kb('VmRSS'), anon: kb('RssAnon'), file: kb('RssFile') };
}
