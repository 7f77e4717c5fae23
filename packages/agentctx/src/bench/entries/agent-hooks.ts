// Hook latency per agent adapter: `agentctx hook session-start` and `user-prompt-submit` with
// `--agent <name>` for each agent, as whole child processes, against `node -e 0` in the same
// run, interleaved, on a store of 1,000 records. Each agent gets its own payload shape (Cursor's
// as documented, the others' as measured). Prints medians.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineCommand, parseOrExit } from '../args.js';
import { prepareStore, SHORT } from '../hook-store.js';
import { BIN } from '../paths.js';
import { f1, loadAverage, median, timeNode } from '../proc.js';

const cmd = defineCommand({
  name: 'bench:agent-hooks',
  summary: "Each agent's SessionStart and prompt hooks against `node -e 0`.",
  options: {
    rounds: { kind: 'int', default: 21, help: 'measured rounds (after two of warm-up)' },
    size: { kind: 'int', default: 1000, help: 'records in the store' },
  },
});
const { rounds: ROUNDS, size: SIZE } = parseOrExit(cmd).values;

/** Each agent's session-start and prompt payloads for session `sid` in `cwd`. */
const AGENTS: Record<string, (sid: string, cwd: string) => [object, object | null]> = {
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

const dir = mkdtempSync(join(tmpdir(), 'agentctx-bench-agents-'));
try {
  const { env, repo } = prepareStore(dir, SIZE);
  const names = Object.keys(AGENTS);
  const samples = new Map(names.map((n) => [n, { start: [] as number[], prompt: [] as number[] }]));
  const node: number[] = [];
  for (let i = 0; i < ROUNDS + 2; i++) {
    const keep = i >= 2; // two rounds of warm-up
    const n0 = timeNode(['-e', '0'], '', env, repo).ms;
    if (keep) node.push(n0);
    for (const name of names) {
      const [start, prompt] = (AGENTS[name] as (typeof AGENTS)[string])(`bench-${name}-${i}`, repo);
      const mine = samples.get(name) as { start: number[]; prompt: number[] };
      const s = timeNode(
        [BIN, 'hook', 'session-start', '--agent', name],
        JSON.stringify(start),
        env,
        repo,
      ).ms;
      if (keep) mine.start.push(s);
      if (prompt) {
        const p = timeNode(
          [BIN, 'hook', 'user-prompt-submit', '--agent', name],
          JSON.stringify(prompt),
          env,
          repo,
        ).ms;
        if (keep) mine.prompt.push(p);
      }
    }
  }
  const base = median(node);
  const cell = (xs: number[]) => (xs.length ? `${f1(median(xs))} (${(median(xs) / base).toFixed(2)}×)` : '—');
  console.log(
    `node ${process.version}, ${SIZE} records, ${ROUNDS} rounds, load average ${loadAverage()}; node -e 0: ${f1(base)} ms`,
  );
  console.log('| agent | session start, ms (× node -e 0) | prompt, ms (× node -e 0) |');
  console.log('|---|---:|---:|');
  for (const [name, s] of samples) console.log(`| ${name} | ${cell(s.start)} | ${cell(s.prompt)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
