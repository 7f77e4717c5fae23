// Hook latency benchmark: `agentctx hook session-start`, `agentctx hook user-prompt-submit`
// (a short and a 55-word prompt) and `agentctx hook subagent-start` as whole child processes,
// against `node -e 0` started in the same run, interleaved, on stores of 1,000 / 10,000 /
// 100,000 records. Prints medians and ratios. "stale digest" is SessionStart right after a
// record was retired (the retirement counters moved past the digest's stamp): it opens the
// store and recomposes the digest. "subagent" is SubagentStart as Claude Code 2.1.332 sends
// it (no task in the payload): the task, the 55-word prompt, is read from a parent transcript
// whose Agent call is waiting for its result, and each round is a new agent (no dedup).
// Run `npm run build` first. Usage: node scripts/bench-hooks.mjs [--rounds N] [--sizes 1000,10000]
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { flag, opt } from './bench-args.mjs';
import { BIN, LONG, prepareStore, SHORT } from './hook-bench-store.mjs';

/** A parent transcript as SubagentStart finds it: a prompt, then an Agent call still running. */
function parentTranscript(path, sessionId, cwd) {
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

const ROUNDS = Number(opt('rounds', '21'));
const SIZES = opt('sizes', '1000,10000,100000').split(',').map(Number);

function time(args, input, env, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, out: r.stdout };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-hooks-'));
try {
  console.log(
    `node ${process.version}, ${ROUNDS} rounds per size, long prompt ${LONG.split(/\s+/).length} words`,
  );
  const rows = [];
  for (const n of SIZES) {
    const { env, home, repo: linkRepo, buildMs, load, projectId } = prepareStore(dir, n);
    const samples = { node: [], start: [], stale: [], short: [], long: [], sub: [] };
    const parentPath = join(dir, `parent-${n}.jsonl`);
    parentTranscript(parentPath, `bench-${n}`, linkRepo);
    const store = join(home, '.agentctx', 'agentctx.db');
    const digestFile = join(home, '.agentctx', 'digests', `${projectId}.digest.json`);
    const digest = JSON.parse(readFileSync(digestFile, 'utf8'));
    let injectedShort = 0;
    let injectedLong = 0;
    let injectedSub = 0;
    for (let i = 0; i < ROUNDS + 2; i++) {
      const sid = `bench-${n}-${i}`;
      const payload = (extra) =>
        JSON.stringify({ session_id: sid, transcript_path: '/dev/null', cwd: linkRepo, ...extra });
      const a = time(['-e', '0'], '', env, linkRepo);
      const b = time(
        [BIN, 'hook', 'session-start'],
        payload({ hook_event_name: 'SessionStart', source: 'startup' }),
        env,
        linkRepo,
      );
      // a retirement elsewhere: the next SessionStart recomposes (and writes the digest back)
      appendFileSync(`${store}.retire-begun`, '.');
      appendFileSync(`${store}.retire-done`, '.');
      const stale = time(
        [BIN, 'hook', 'session-start'],
        payload({ hook_event_name: 'SessionStart', source: 'startup' }),
        env,
        linkRepo,
      );
      // the benchmark's own digest back, current again
      digest.retire_stamp += 1;
      writeFileSync(digestFile, JSON.stringify(digest));
      const c = time(
        [BIN, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `${sid}-s`,
          transcript_path: '/dev/null',
          cwd: linkRepo,
          hook_event_name: 'UserPromptSubmit',
          prompt: SHORT,
        }),
        env,
        linkRepo,
      );
      const d = time(
        [BIN, 'hook', 'user-prompt-submit'],
        JSON.stringify({
          session_id: `${sid}-l`,
          transcript_path: '/dev/null',
          cwd: linkRepo,
          hook_event_name: 'UserPromptSubmit',
          prompt: LONG,
        }),
        env,
        linkRepo,
      );
      const e = time(
        [BIN, 'hook', 'subagent-start'],
        JSON.stringify({
          session_id: `bench-${n}`,
          transcript_path: parentPath,
          cwd: linkRepo,
          hook_event_name: 'SubagentStart',
          agent_id: `agent-${i}`,
          agent_type: 'general-purpose',
        }),
        env,
        linkRepo,
      );
      if (i < 2) continue; // warm-up
      samples.node.push(a.ms);
      samples.start.push(b.ms);
      samples.stale.push(stale.ms);
      samples.short.push(c.ms);
      samples.long.push(d.ms);
      samples.sub.push(e.ms);
      if (c.out) injectedShort++;
      if (d.out) injectedLong++;
      if (e.out) injectedSub++;
    }
    const base = median(samples.node);
    rows.push({
      records: n,
      build_s: (buildMs / 1000).toFixed(1),
      node_ms: base.toFixed(1),
      start_ms: median(samples.start).toFixed(1),
      start_x: (median(samples.start) / base).toFixed(2),
      stale_ms: median(samples.stale).toFixed(1),
      stale_x: (median(samples.stale) / base).toFixed(2),
      short_ms: median(samples.short).toFixed(1),
      short_x: (median(samples.short) / base).toFixed(2),
      long_ms: median(samples.long).toFixed(1),
      long_x: (median(samples.long) / base).toFixed(2),
      sub_ms: median(samples.sub).toFixed(1),
      sub_x: (median(samples.sub) / base).toFixed(2),
      injected: `${injectedShort}/${ROUNDS} short, ${injectedLong}/${ROUNDS} long, ${injectedSub}/${ROUNDS} subagent`,
      load,
    });
  }
  console.log('');
  console.log(
    '| records | node -e 0 ms | session-start ms (×) | stale digest ms (×) | prompt short ms (×) | prompt 55 words ms (×) | subagent ms (×) | injected | store build s |',
  );
  console.log('|---:|---:|---:|---:|---:|---:|---:|---|---:|');
  for (const r of rows) {
    console.log(
      `| ${r.records} | ${r.node_ms} | ${r.start_ms} (${r.start_x}×) | ${r.stale_ms} (${r.stale_x}×) | ${r.short_ms} (${r.short_x}×) | ${r.long_ms} (${r.long_x}×) | ${r.sub_ms} (${r.sub_x}×) | ${r.injected} | ${r.build_s} |`,
    );
  }
  console.log(
    '\nTargets at 10,000 records: session-start ≤ 1.4×, short prompt ≤ 1.6×, 55-word prompt ≤ 1.9×.',
  );
  console.log('How heavy the stores are for the short prompt (every record distinct):');
  for (const r of rows) console.log(`  ${r.records} records: ${r.load}`);
} finally {
  if (flag('keep')) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
