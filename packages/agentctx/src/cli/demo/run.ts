import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_CONFIG, saveConfig } from '../../app/config.js';
import { estimateTokens } from '../../shared/tokens.js';
import { startMcpClient } from '../mcp-stdio-client.js';
import {
  type DemoWorld,
  type HookRun,
  runHook,
  type StoredRecord,
  storedRecords,
  waitFor,
} from './driver.js';
import { SESSION_1, SESSION_2, TEST_COMMAND, writeSampleRepo } from './sample.js';
import { DemoTranscript } from './transcript.js';

/**
 * The demo's script, step by step: session 1 (a decision and a preference stated and recorded
 * through the MCP server, a failing test captured by PostToolUseFailure, Stop's rule-based
 * extraction, SessionEnd's consolidation), then session 2 (the digest at SessionStart, the
 * injection for a prompt). Each step reports what Claude Code received and what was stored.
 */

export interface Received {
  text: string;
  tokens: number;
}

export interface DemoStep {
  session: 1 | 2;
  /** What happened, in one line. */
  what: string;
  /** The hook or tool that ran. */
  via: string;
  /** What Claude Code got back to add to its context (hooks), if anything. */
  received?: Received | null;
  /** Background jobs the step started, and how long the demo waited for them. */
  background?: { command: string; pid: number }[];
  /** What an MCP tool answered Claude (tool steps). */
  answer?: string;
  /** Records that appeared in the store during the step. */
  stored: StoredRecord[];
  ms: number;
}

/** How long one background job may take before the demo gives up waiting. */
const JOB_WAIT_MS = 60_000;

class DemoFailure extends Error {}

async function settle(run: HookRun, timeoutMs = JOB_WAIT_MS): Promise<void> {
  const left = await waitFor(
    run.spawned.map((s) => s.pid),
    timeoutMs,
  );
  if (left.length > 0)
    throw new DemoFailure(`background job(s) ${left.join(', ')} still running after ${timeoutMs} ms`);
}

function received(context: string | null): Received | null {
  return context ? { text: context, tokens: estimateTokens(context) } : null;
}

export async function runDemo(world: DemoWorld, onStep: (s: DemoStep) => void): Promise<{ git: boolean }> {
  mkdirSync(world.home, { recursive: true, mode: 0o700 });
  mkdirSync(world.transcripts, { recursive: true });
  mkdirSync(join(world.dir, 'tmp'), { recursive: true });
  // No model: extraction is rule-based whatever keys the machine has (the env drops them too).
  saveConfig(join(world.home, 'config.json'), {
    ...structuredClone(DEFAULT_CONFIG),
    llm: { ...DEFAULT_CONFIG.llm, enabled: false },
  });
  const { git } = writeSampleRepo(world.repo, world.env);

  let known = new Set<string>();
  const fresh = (): StoredRecord[] => {
    const all = storedRecords(world);
    const out = all.filter((r) => !known.has(r.id));
    known = new Set(all.map((r) => r.id));
    return out;
  };
  const step = async (
    s: Omit<DemoStep, 'stored' | 'ms' | 'received' | 'background' | 'answer'>,
    act: () => Promise<HookRun | string> | HookRun | string,
  ): Promise<void> => {
    const t = performance.now();
    const out = await act();
    const run = typeof out === 'string' ? null : out;
    if (run) await settle(run);
    onStep({
      ...s,
      ...(typeof out === 'string' ? { answer: out } : {}),
      ...(run ? { received: received(run.context) } : {}),
      ...(run?.spawned.length ? { background: run.spawned } : {}),
      stored: fresh(),
      ms: Math.round(performance.now() - t),
    });
  };

  // ── session 1 ──
  const s1 = SESSION_1.id;
  const t1 = join(world.transcripts, `${s1}.jsonl`);
  const transcript = new DemoTranscript(t1, s1, world.repo);
  const base1 = { session_id: s1, transcript_path: t1, cwd: world.repo };
  await step(
    { session: 1, what: 'Claude Code starts a session in the project', via: 'SessionStart hook' },
    () => runHook(world, 'session-start', { ...base1, hook_event_name: 'SessionStart', source: 'startup' }),
  );
  const mcp = await startMcpClient({
    command: process.execPath,
    args: [world.bin, 'mcp'],
    cwd: world.repo,
    env: { ...world.env, CLAUDE_CODE_SESSION_ID: s1 },
    timeoutMs: 20_000,
  });
  try {
    for (const [prompt, rec, said] of [
      [SESSION_1.decisionPrompt, SESSION_1.decision, 'Noted: money is integer cents from now on.'],
      [SESSION_1.preferencePrompt, SESSION_1.preference, 'Noted: small commits, each with its test.'],
    ] as const) {
      await step({ session: 1, what: `You type: "${prompt}"`, via: 'UserPromptSubmit hook' }, () => {
        transcript.user(prompt);
        return runHook(world, 'user-prompt-submit', {
          ...base1,
          hook_event_name: 'UserPromptSubmit',
          prompt,
        });
      });
      await step(
        {
          session: 1,
          what: `Claude records the ${rec.type} it was told`,
          via: 'MCP tool ctx_record (agentctx mcp)',
        },
        async () => {
          const res = await mcp.callTool('ctx_record', { ...rec });
          if (res.isError) throw new DemoFailure(`ctx_record failed: ${res.text}`);
          transcript.tool('mcp__agentctx__ctx_record', { ...rec }, res.text, false);
          transcript.assistant(said);
          return res.text;
        },
      );
    }
  } finally {
    await mcp.close();
  }
  await step(
    { session: 1, what: `You type: "${SESSION_1.testPrompt}"`, via: 'UserPromptSubmit hook' },
    () => {
      transcript.user(SESSION_1.testPrompt);
      return runHook(world, 'user-prompt-submit', {
        ...base1,
        hook_event_name: 'UserPromptSubmit',
        prompt: SESSION_1.testPrompt,
      });
    },
  );
  await step(
    { session: 1, what: `Claude runs the tests: ${TEST_COMMAND}`, via: 'PostToolUseFailure hook' },
    () => {
      const test = spawnSync(process.execPath, ['--test', 'test/money.test.js'], {
        cwd: world.repo,
        env: { ...world.env, NODE_TEST_CONTEXT: undefined, FORCE_COLOR: '0', NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 30_000,
      });
      const output = `${test.stdout ?? ''}${test.stderr ?? ''}`.trim();
      const failed = test.status !== 0;
      transcript.tool('Bash', { command: TEST_COMMAND }, output, failed);
      transcript.assistant(SESSION_1.assistantAfterTest);
      const payload = {
        ...base1,
        tool_name: 'Bash',
        tool_input: { command: TEST_COMMAND, description: 'Run the money tests' },
        tool_use_id: 'toolu_demo_test',
      };
      return failed
        ? runHook(world, 'post-tool-use', {
            ...payload,
            hook_event_name: 'PostToolUseFailure',
            error: `Exit code ${test.status}\n${output}`,
          })
        : runHook(world, 'post-tool-use', {
            ...payload,
            hook_event_name: 'PostToolUse',
            tool_response: { stdout: output, stderr: '', interrupted: false },
          });
    },
  );
  await step(
    { session: 1, what: 'Claude finishes its answer', via: 'Stop hook → agentctx extract (rule-based)' },
    () => runHook(world, 'stop', { ...base1, hook_event_name: 'Stop', stop_hook_active: false }),
  );
  await step(
    { session: 1, what: 'You close the session', via: 'SessionEnd hook → agentctx consolidate' },
    () =>
      runHook(world, 'session-end', { ...base1, hook_event_name: 'SessionEnd', reason: 'prompt_input_exit' }),
  );

  // ── session 2 ──
  const s2 = SESSION_2.id;
  const t2 = join(world.transcripts, `${s2}.jsonl`);
  const base2 = { session_id: s2, transcript_path: t2, cwd: world.repo };
  await step({ session: 2, what: 'The next session starts', via: 'SessionStart hook' }, () =>
    runHook(world, 'session-start', { ...base2, hook_event_name: 'SessionStart', source: 'startup' }),
  );
  await step({ session: 2, what: `You type: "${SESSION_2.prompt}"`, via: 'UserPromptSubmit hook' }, () => {
    new DemoTranscript(t2, s2, world.repo).user(SESSION_2.prompt);
    return runHook(world, 'user-prompt-submit', {
      ...base2,
      hook_event_name: 'UserPromptSubmit',
      prompt: SESSION_2.prompt,
    });
  });
  return { git };
}
