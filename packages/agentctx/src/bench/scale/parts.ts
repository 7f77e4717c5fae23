// The scale benchmark's timed parts on one project: consolidation, the hooks against
// `node -e 0`, one long session, and the MCP server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LONG, SHORT } from '../hook-store.js';
import { connect } from '../mcp-client.js';
import { pick, zipf } from '../prng.js';
import { f1, loadAverage, type Memory, median, memoryOf, quantile, timeNode } from '../proc.js';
import { DEV_WORDS } from '../text.js';
import { identifiers, rand } from './store.js';

export interface PartContext {
  bin: string;
  env: NodeJS.ProcessEnv;
  /** The first project's folder. */
  repo: string;
  say: (line?: string) => void;
  rounds: number;
  sessionPrompts: number;
  spawns: number;
}

export const mem = (m: Memory): string =>
  `${f1(m.rss)} MB (private ${f1(m.anon)} MB, file pages of the store and code ${f1(m.file)} MB)`;

interface ConsolidateSummary {
  steps?: { name: string; ms: number }[];
}

function consolidate(c: PartContext) {
  const r = timeNode([c.bin, 'consolidate', '--json', '--budget-ms', '900000'], '', c.env, c.repo);
  const s = JSON.parse(r.out) as ConsolidateSummary | ConsolidateSummary[] | { project: ConsolidateSummary };
  const summary: ConsolidateSummary = Array.isArray(s) ? (s[0] ?? {}) : 'project' in s ? s.project : s;
  return { ms: r.ms, summary };
}

export function consolidationPart(c: PartContext): void {
  c.say('');
  c.say('### Consolidation (project 1: its records and the global ones)');
  const steps = (s: ConsolidateSummary) => (s.steps ?? []).map((x) => `${x.name} ${x.ms}`).join(', ');
  const first = consolidate(c);
  c.say(`first run (keyword only): ${f1(first.ms / 1000)} s; steps ms: ${steps(first.summary)}`);
  const again = consolidate(c);
  c.say(`rerun: ${f1(again.ms / 1000)} s; steps ms: ${steps(again.summary)}`);
  c.say(`(load average ${loadAverage()})`);
}

const prompt = (c: PartContext, sessionId: string, text: string) =>
  timeNode(
    [c.bin, 'hook', 'user-prompt-submit'],
    JSON.stringify({
      session_id: sessionId,
      cwd: c.repo,
      transcript_path: '/dev/null',
      hook_event_name: 'UserPromptSubmit',
      prompt: text,
    }),
    c.env,
    c.repo,
  );

export function hooksPart(c: PartContext): void {
  const samples = {
    node: [] as number[],
    start: [] as number[],
    short: [] as number[],
    long: [] as number[],
  };
  for (let i = 0; i < c.rounds + 2; i++) {
    const sid = `scale-${i}`;
    const a = timeNode(['-e', '0'], '', c.env, c.repo).ms;
    const b = timeNode(
      [c.bin, 'hook', 'session-start'],
      JSON.stringify({
        session_id: sid,
        transcript_path: '/dev/null',
        cwd: c.repo,
        hook_event_name: 'SessionStart',
        source: 'startup',
      }),
      c.env,
      c.repo,
    ).ms;
    const s = prompt(c, `${sid}-s`, SHORT).ms;
    const l = prompt(c, `${sid}-l`, LONG).ms;
    if (i < 2) continue;
    samples.node.push(a);
    samples.start.push(b);
    samples.short.push(s);
    samples.long.push(l);
  }
  const base = median(samples.node);
  const x = (xs: number[]) => `${f1(median(xs))} ms (${(median(xs) / base).toFixed(2)}×)`;
  c.say('');
  c.say(`### Hooks (${c.rounds} interleaved rounds; load average ${loadAverage()})`);
  c.say(
    `node -e 0 ${f1(base)} ms; SessionStart ${x(samples.start)}; prompt short ${x(samples.short)}; prompt 55 words ${x(samples.long)}`,
  );
}

/** The ids in a session's dedup file: a snapshot line, then one appended line of ids per prompt. */
function dedupSize(tmp: string, sessionId: string): number | 'unknown' {
  try {
    const ids = new Set<string>();
    for (const line of readFileSync(join(tmp, `agentctx-${sessionId}.json`), 'utf8').split('\n')) {
      if (!line) continue;
      const o = JSON.parse(line) as { injected?: string[]; add?: string[] };
      if (Array.isArray(o.injected)) ids.clear();
      for (const id of o.injected ?? o.add ?? []) ids.add(id);
    }
    return ids.size;
  } catch {
    return 'unknown';
  }
}

export function sessionPart(c: PartContext): void {
  const n = c.sessionPrompts;
  const ownWords = identifiers(0, 3000);
  const prompts = Array.from(
    { length: n },
    () =>
      `How do we handle ${zipf(rand, DEV_WORDS)} ${zipf(rand, ownWords)} in the ${zipf(rand, DEV_WORDS)} ${pick(rand, ['path', 'flow', 'step'])}?`,
  );
  const times: number[] = [];
  let injected = 0;
  const nodeTimes: number[] = [];
  for (let k = 0; k < n; k++) {
    const r = prompt(c, 'scale-long', prompts[k] as string);
    times.push(r.ms);
    if (r.out) injected++;
    if (k % 50 === 0) nodeTimes.push(timeNode(['-e', '0'], '', c.env, c.repo).ms);
  }
  // The later prompts differ from the first ones, and their best matches were shown already:
  // to see what the dedup set alone costs, the first 20 prompts again, each in a session of its
  // own (nothing shown) and in the long session (everything shown), interleaved.
  const fresh: number[] = [];
  const again: number[] = [];
  for (let k = 0; k < Math.min(20, n); k++) {
    fresh.push(prompt(c, `scale-fresh-${k}`, prompts[k] as string).ms);
    again.push(prompt(c, 'scale-long', prompts[k] as string).ms);
  }
  const dedup = dedupSize(c.env.AGENTCTX_TMPDIR as string, 'scale-long');
  const head = times.slice(0, 20);
  const tail = times.slice(-20);
  const nb = median(nodeTimes);
  c.say('');
  c.say(`### One session of ${n} prompts (load average ${loadAverage()})`);
  c.say(
    `prompts 1–20: median ${f1(median(head))} ms (${(median(head) / nb).toFixed(2)}×); prompts ${n - 19}–${n}: median ${f1(median(tail))} ms (${(median(tail) / nb).toFixed(2)}×); node -e 0 ${f1(nb)} ms; ${injected} prompts injected; dedup set at the end: ${dedup} ids`,
  );
  c.say(
    `prompts 1–20 again, interleaved: in fresh sessions median ${f1(median(fresh))} ms; in the long session (its dedup set of ${dedup} ids) median ${f1(median(again))} ms`,
  );
}

export async function mcpPart(c: PartContext): Promise<void> {
  const ownWords = identifiers(0, 3000);
  const queries = Array.from(
    { length: 200 },
    () => `${zipf(rand, DEV_WORDS)} ${zipf(rand, ownWords)} ${zipf(rand, DEV_WORDS)}`,
  );
  const spawnTimes: number[] = [];
  const nodeSpawn: number[] = [];
  const server = () => connect({ bin: c.bin, cwd: c.repo, env: c.env, name: 'bench-scale' });
  for (let k = 0; k < c.spawns; k++) {
    nodeSpawn.push(timeNode(['-e', '0'], '', c.env, c.repo).ms);
    const t0 = performance.now();
    const s = await server();
    await s.client.callTool({ name: 'ctx_search', arguments: { query: queries[k % queries.length] } });
    spawnTimes.push(performance.now() - t0);
    await s.client.close();
  }
  const s = await server();
  const call: number[] = [];
  let rss100: Memory | null = null;
  for (let k = 0; k < 1000; k++) {
    const t0 = performance.now();
    await s.client.callTool({ name: 'ctx_search', arguments: { query: queries[k % queries.length] } });
    call.push(performance.now() - t0);
    if (k === 99) rss100 = memoryOf(s.pid);
  }
  const rss1000 = memoryOf(s.pid);
  await s.client.close();
  const ns = median(nodeSpawn);
  c.say('');
  c.say(`### MCP server (load average ${loadAverage()})`);
  c.say(
    `spawn → first ctx_search result: median ${f1(median(spawnTimes))} ms (${(median(spawnTimes) / ns).toFixed(2)}× node -e 0 ${f1(ns)} ms); ctx_search on an open connection: median ${median(call).toFixed(2)} ms, p95 ${quantile(call, 0.95).toFixed(2)} ms; resident memory after 100 calls ${rss100 ? mem(rss100) : '?'}, after 1,000 calls ${mem(rss1000)}`,
  );
}
