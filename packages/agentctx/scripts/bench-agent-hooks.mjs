// Hook latency per agent adapter: `agentctx hook session-start` and `user-prompt-submit` with
// `--agent <name>` for each agent, as whole child processes, against `node -e 0` in the same
// run, interleaved, on a store of 1,000 records. Each agent gets its own payload shape (Cursor's
// as documented, the others' as measured). Prints medians. Run `npm run build` first.
// Usage: node scripts/bench-agent-hooks.mjs [--rounds N] [--size N]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { opt } from './bench-args.mjs';
import { BIN, prepareStore, SHORT } from './hook-bench-store.mjs';

const ROUNDS = Number(opt('rounds', '21'));
const SIZE = Number(opt('size', '1000'));

/** Each agent's session-start and prompt payloads for session `sid` in `cwd`. */
const AGENTS = {
  'claude-code': (sid, cwd) => [
    { session_id: sid, cwd, source: 'startup' },
    { session_id: `${sid}-p`, cwd, prompt: SHORT },
  ],
  codex: (sid, cwd) => [
    { session_id: sid, cwd, source: 'startup', model: 'gpt-5' },
    { session_id: `${sid}-p`, cwd, prompt: SHORT, turn_id: 't' },
  ],
  qwen: (sid, cwd) => [
    { session_id: sid, cwd, source: 'startup' },
    { session_id: `${sid}-p`, cwd, prompt: SHORT },
  ],
  gemini: (sid, cwd) => [
    { session_id: sid, cwd, source: 'startup' },
    { session_id: `${sid}-p`, cwd, prompt: `<hook_context>digest</hook_context>\n\n${SHORT}` },
  ],
  opencode: (sid, cwd) => [
    { session_id: sid, cwd, source: 'startup' },
    { session_id: `${sid}-p`, cwd, prompt: SHORT },
  ],
  cursor: (sid, cwd) => [{ conversation_id: sid, session_id: sid, workspace_roots: [cwd] }, null],
  copilot: (sid, cwd) => [
    { sessionId: sid, timestamp: 0, cwd, source: 'new' },
    { sessionId: `${sid}-p`, timestamp: 0, cwd, prompt: SHORT },
  ],
};

function time(args, input, env, cwd) {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { input, env, cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-agents-'));
try {
  const { env, repo } = prepareStore(dir, SIZE);
  const names = Object.keys(AGENTS);
  const samples = Object.fromEntries(names.map((n) => [n, { start: [], prompt: [] }]));
  const node = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const keep = i >= 2; // two rounds of warm-up
    const n0 = time(['-e', '0'], '', env, repo);
    if (keep) node.push(n0);
    for (const name of names) {
      const [start, prompt] = AGENTS[name](`bench-${name}-${i}`, repo);
      const s = time([BIN, 'hook', 'session-start', '--agent', name], JSON.stringify(start), env, repo);
      if (keep) samples[name].start.push(s);
      if (prompt) {
        const p = time(
          [BIN, 'hook', 'user-prompt-submit', '--agent', name],
          JSON.stringify(prompt),
          env,
          repo,
        );
        if (keep) samples[name].prompt.push(p);
      }
    }
  }
  console.log(
    `node ${process.version}, ${SIZE} records, ${ROUNDS} rounds; node -e 0: ${median(node).toFixed(1)} ms`,
  );
  console.log('| agent | session start (ms) | prompt (ms) |');
  console.log('|---|---:|---:|');
  for (const name of names) {
    const p = samples[name].prompt;
    console.log(
      `| ${name} | ${median(samples[name].start).toFixed(1)} | ${p.length ? median(p).toFixed(1) : '—'} |`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
