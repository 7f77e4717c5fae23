// Hook latency benchmark: `agentctx hook session-start`, `agentctx hook user-prompt-submit`
// (a short and a 55-word prompt) and `agentctx hook subagent-start` as whole child processes,
// against `node -e 0` started in the same run, interleaved, on stores of 1,000 / 10,000 /
// 100,000 records. Prints medians and ratios. "stale digest" is SessionStart right after a
// record was retired (the retirement counters moved past the digest's stamp): it opens the
// store and recomposes the digest. "subagent" is SubagentStart as Claude Code 2.1.332 sends
// it (no task in the payload): the task, the 55-word prompt, is read from a parent transcript
// whose Agent call is waiting for its result, and each round is a new agent (no dedup).
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { LONG, prepareStore, SHORT } from '../hook-store.js';
import { BIN, storePath } from '../paths.js';
import { median, timeNode } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:hooks',
  summary: 'Hook processes against `node -e 0`, interleaved, on synthetic stores.',
  options: {
    rounds: { kind: 'int', default: 21, help: 'measured rounds per size (after two of warm-up)' },
    sizes: { kind: 'ints', default: [1000, 10000, 100000], help: 'store sizes, in records' },
    keep: { kind: 'flag', help: 'keep the stores and print their folder' },
  },
});
const { rounds: ROUNDS, sizes: SIZES, keep } = parseOrExit(cmd).values;

/** A parent transcript as SubagentStart finds it: a prompt, then an Agent call still running. */
function parentTranscript(path: string, sessionId: string, cwd: string): void {
  const base = { isSidechain: false, sessionId, cwd, version: '2.1.332', userType: 'external' };
  const lines = [
    {
      ...base,
      type: 'user',
      uuid: 'u1',
      timestamp: '2026-12-01T09:00:00Z',
      message: { role: 'user', content: 'Please delegate this.' },
    },
    {
      ...base,
      type: 'assistant',
      uuid: 'u2',
      parentUuid: 'u1',
      timestamp: '2026-12-01T09:00:02Z',
      message: {
        id: 'msg_1',
        role: 'assistant',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Agent',
            input: { description: 'Investigate', prompt: LONG },
          },
        ],
      },
    },
  ];
  writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(''));
}

const KINDS = ['node', 'start', 'stale', 'short', 'long', 'sub'] as const;
const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-hooks-'));
try {
  console.log(
    `node ${process.version}, ${ROUNDS} rounds per size, long prompt ${LONG.split(/\s+/).length} words`,
  );
  const rows: string[] = [];
  const loads: string[] = [];
  for (const n of SIZES) {
    const { env, home, repo, buildMs, load, projectId } = prepareStore(dir, n);
    const samples = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<
      (typeof KINDS)[number],
      number[]
    >;
    const parentPath = join(dir, `parent-${n}.jsonl`);
    parentTranscript(parentPath, `bench-${n}`, repo);
    const store = storePath(home);
    const digestFile = join(home, '.agentctx', 'digests', `${projectId}.digest.json`);
    const digest = JSON.parse(readFileSync(digestFile, 'utf8')) as { retire_stamp: number };
    const injected = { short: 0, long: 0, sub: 0 };
    const hook = (event: string, payload: object) =>
      timeNode(
        [BIN, 'hook', event],
        JSON.stringify({ transcript_path: '/dev/null', cwd: repo, ...payload }),
        env,
        repo,
      );
    for (let i = 0; i < ROUNDS + 2; i++) {
      const sid = `bench-${n}-${i}`;
      const a = timeNode(['-e', '0'], '', env, repo);
      const start = { session_id: sid, hook_event_name: 'SessionStart', source: 'startup' };
      const b = hook('session-start', start);
      // a retirement elsewhere: the next SessionStart recomposes (and writes the digest back)
      appendFileSync(`${store}.retire-begun`, '.');
      appendFileSync(`${store}.retire-done`, '.');
      const stale = hook('session-start', start);
      // the benchmark's own digest back, current again
      digest.retire_stamp += 1;
      writeFileSync(digestFile, JSON.stringify(digest));
      const prompt = (suffix: string, text: string) =>
        hook('user-prompt-submit', {
          session_id: `${sid}-${suffix}`,
          hook_event_name: 'UserPromptSubmit',
          prompt: text,
        });
      const c = prompt('s', SHORT);
      const d = prompt('l', LONG);
      const e = timeNode(
        [BIN, 'hook', 'subagent-start'],
        JSON.stringify({
          session_id: `bench-${n}`,
          transcript_path: parentPath,
          cwd: repo,
          hook_event_name: 'SubagentStart',
          agent_id: `agent-${i}`,
          agent_type: 'general-purpose',
        }),
        env,
        repo,
      );
      if (i < 2) continue; // warm-up
      samples.node.push(a.ms);
      samples.start.push(b.ms);
      samples.stale.push(stale.ms);
      samples.short.push(c.ms);
      samples.long.push(d.ms);
      samples.sub.push(e.ms);
      if (c.out) injected.short++;
      if (d.out) injected.long++;
      if (e.out) injected.sub++;
    }
    const base = median(samples.node);
    const cell = (k: (typeof KINDS)[number]) =>
      `${median(samples[k]).toFixed(1)} (${(median(samples[k]) / base).toFixed(2)}×)`;
    rows.push(
      `| ${n} | ${base.toFixed(1)} | ${cell('start')} | ${cell('stale')} | ${cell('short')} | ${cell('long')} | ${cell('sub')} | ${injected.short}/${ROUNDS} short, ${injected.long}/${ROUNDS} long, ${injected.sub}/${ROUNDS} subagent | ${(buildMs / 1000).toFixed(1)} |`,
    );
    loads.push(`  ${n} records: ${load}`);
  }
  console.log('');
  console.log(
    '| records | node -e 0 ms | session-start ms (×) | stale digest ms (×) | prompt short ms (×) | prompt 55 words ms (×) | subagent ms (×) | injected | store build s |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) console.log(r);
  console.log(
    '\nTargets at 10,000 records: session-start ≤ 1.4×, short prompt ≤ 1.6×, 55-word prompt ≤ 1.9×.',
  );
  console.log('How heavy the stores are for the short prompt (every record distinct):');
  for (const l of loads) console.log(l);
} finally {
  if (keep) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
