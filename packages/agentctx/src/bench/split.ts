import type { BenchDataset, BenchQuery } from './dataset.js';

/**
 * Tuning and validation splits, so that figures tuned on one part are reported on another.
 * A dataset of four or more projects (LoCoMo: one per conversation) splits by project: the
 * first 60% of project names, sorted, tune (conversations 1–3 of 5), the rest validate. A
 * dataset of fewer projects splits its queries in halves by a stable hash of the query id.
 */
type Split = 'all' | 'tune' | 'validate';

export const SPLITS: readonly Split[] = ['all', 'tune', 'validate'];

/** FNV-1a, 32 bits: stable across runs and machines. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function splitOf(data: BenchDataset, q: BenchQuery): Exclude<Split, 'all'> {
  const projects = [...new Set(data.queries.map((x) => x.project))].sort();
  if (projects.length >= 4) {
    const tuning = Math.ceil(projects.length * 0.6);
    return projects.indexOf(q.project) < tuning ? 'tune' : 'validate';
  }
  return hash(q.id) % 2 === 0 ? 'tune' : 'validate';
}

/** The queries of one split; records stay whole (a query searches its whole project). */
export function selectSplit(data: BenchDataset, split: Split): BenchDataset {
  if (split === 'all') return data;
  return {
    ...data,
    name: `${data.name} [${split}]`,
    queries: data.queries.filter((q) => splitOf(data, q) === split),
  };
}
