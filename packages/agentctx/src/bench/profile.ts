// Reading V8 CPU profiles (.cpuprofile, from node --cpu-prof): time per function, self and
// inclusive, for the profiling scripts.
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export const readProfile = (file: string): CpuProfile => JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;

/**
 * Milliseconds per function: self (the sampled frame, keyed by `selfKey`) and inclusive (each
 * sample counted once for every distinct `inclusiveKey` on its stack). A sample's time is the
 * delta to the next sample, as V8 records it.
 */
export function timeByFunction(
  p: CpuProfile,
  selfKey: (f: CallFrame) => string,
  inclusiveKey: (f: CallFrame) => string,
): { self: Map<string, number>; inclusive: Map<string, number>; total: number } {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  p.samples.forEach((id, i) => {
    const ms = (p.timeDeltas[i + 1] ?? 0) / 1000;
    total += ms;
    const leaf = byId.get(id);
    if (!leaf) return;
    const key = selfKey(leaf.callFrame);
    self.set(key, (self.get(key) ?? 0) + ms);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const node = byId.get(at);
      if (!node) break;
      seen.add(inclusiveKey(node.callFrame));
    }
    for (const k of seen) inclusive.set(k, (inclusive.get(k) ?? 0) + ms);
  });
  return { self, inclusive, total };
}
