// The report of bench:faults: the figures the fault tests measured, by section, and the
// hook-fuzz figures merged from the shards of a split run.
import { readFileSync } from 'node:fs';

interface Figure {
  section: string;
  name: string;
  value: number | string;
  unit?: string;
}

/** The figures by section, then the summary: numbers that share a name before " (" are added up. */
export function summarise(figures: readonly Figure[]): string[] {
  const show = (f: Figure) => `${f.value}${f.unit ? ` ${f.unit}` : ''}`;
  const out: string[] = [];
  const sections = [...new Set(figures.filter((f) => f.section !== 'Summary').map((f) => f.section))];
  for (const s of sections) {
    out.push('', `## ${s}`);
    for (const f of figures.filter((x) => x.section === s))
      out.push(`  ${f.name.padEnd(72, ' ')} ${show(f)}`);
  }
  out.push('', '## Summary');
  const groups = new Map<string, Figure[]>();
  for (const f of figures.filter((x) => x.section === 'Summary')) {
    const name = f.name.replace(/ \(.*\)$/, '');
    groups.set(name, [...(groups.get(name) ?? []), f]);
  }
  for (const [name, parts] of groups) {
    const numeric = parts.every((p) => typeof p.value === 'number');
    const value = numeric
      ? parts.reduce((n, p) => n + (p.value as number), 0)
      : parts.map((p) => p.value).join('; ');
    const detail =
      numeric && parts.length > 1
        ? ` (${parts.map((p) => `${p.value} ${/\((.*)\)$/.exec(p.name)?.[1] ?? ''}`.trim()).join(', ')})`
        : '';
    out.push(`  ${name}: ${value}${detail}`);
  }
  return out;
}

interface FuzzCase {
  seed: number;
  i: number;
  of: number;
  ms: number;
  bytes: number;
  hook: string;
  injected?: boolean;
  code: number;
  problem?: string;
}

/** The hook-fuzz figures of every case logged in `file` (one JSON line per payload, from any shard). */
export function fuzzSummary(file: string): string {
  const byCase = new Map<string, FuzzCase>();
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    try {
      const r = JSON.parse(line) as FuzzCase;
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
  const rank = (p: number) => ms[Math.min(ms.length - 1, Math.max(0, Math.ceil((p / 100) * ms.length) - 1))];
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
