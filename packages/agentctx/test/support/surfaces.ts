import { join } from 'node:path';
import { type McpSession, startMcp } from '../process/mcp/client.js';
import { BIN, spawnCollect } from './cli.js';

/**
 * Every way into a store — the CLI's read and write commands, the seven hooks, the MCP tools —
 * run against one home, each timed and judged: a CLI command answers or fails with one
 * `agentctx: …` line (never a stack trace), a hook exits 0 and prints nothing or one hook JSON
 * object, an MCP tool answers or says what went wrong, and nothing hangs.
 */

export interface SurfaceResult {
  surface: string;
  ms: number;
  ok: boolean;
  /** It answered normally (a read that degraded to a snapshot counts as answered). */
  answered: boolean;
  detail: string;
}

const STACK = /\n\s+at .+\(|\n\s+at \S+:\d+:\d+/;

function judgeCli(
  surface: string,
  r: { code: number | null; stdout: string; stderr: string },
  ms: number,
): SurfaceResult {
  if (r.code === 0) return { surface, ms, ok: !STACK.test(r.stderr), answered: true, detail: '' };
  const lines = r.stderr.trim().split('\n');
  const clear =
    r.code !== null && lines.length === 1 && lines[0]!.startsWith('agentctx: ') && !STACK.test(r.stderr);
  return {
    surface,
    ms,
    ok: clear,
    answered: false,
    detail: `exit ${r.code}: ${r.stderr.trim().slice(0, 300)}`,
  };
}

const HOOK_EVENTS: Record<string, string> = {
  'session-start': 'SessionStart',
  'user-prompt-submit': 'UserPromptSubmit',
  stop: 'Stop',
  'pre-compact': 'PreCompact',
  'post-tool-use': 'PostToolUse',
  'session-end': 'SessionEnd',
  'cwd-changed': 'CwdChanged',
  'subagent-start': 'SubagentStart',
};

function judgeHook(
  hook: string,
  r: { code: number | null; stdout: string; stderr: string },
  ms: number,
): SurfaceResult {
  const surface = `hook ${hook}`;
  let valid = r.stdout.trim() === '';
  if (!valid) {
    try {
      const v = JSON.parse(r.stdout) as {
        hookSpecificOutput?: { hookEventName?: string; additionalContext?: unknown };
      };
      valid =
        v.hookSpecificOutput?.hookEventName === HOOK_EVENTS[hook] &&
        typeof v.hookSpecificOutput?.additionalContext === 'string';
    } catch {
      valid = false;
    }
  }
  const ok = r.code === 0 && r.stderr === '' && valid;
  return {
    surface,
    ms,
    ok,
    answered: r.stdout.trim() !== '',
    detail: ok ? '' : `exit ${r.code} stdout ${r.stdout.slice(0, 200)} stderr ${r.stderr.slice(0, 200)}`,
  };
}

export interface World {
  home: string;
  repo: string;
  env: NodeJS.ProcessEnv;
  /** An id of a current record of the project, for show / ctx_get / supersede. */
  id: string;
  /** A second one, for merge. */
  other: string;
}

async function cli(w: World, surface: string, args: string[], timeoutMs: number): Promise<SurfaceResult> {
  const t0 = Date.now();
  const r = await spawnCollect(process.execPath, [BIN, ...args], { cwd: w.repo, env: w.env, timeoutMs });
  return judgeCli(surface, r, Date.now() - t0);
}

export function cliReads(w: World, timeoutMs: number): Promise<SurfaceResult>[] {
  return [
    cli(w, 'search', ['search', 'ledger payments'], timeoutMs),
    cli(w, 'search --json', ['search', 'ledger', '--json'], timeoutMs),
    cli(w, 'show', ['show', w.id], timeoutMs),
    cli(w, 'export', ['export'], timeoutMs),
    cli(w, 'export --profile', ['export', '--profile'], timeoutMs),
    cli(w, 'status', ['status'], timeoutMs),
    cli(w, 'status --json', ['status', '--json'], timeoutMs),
    cli(w, 'profile show', ['profile', 'show'], timeoutMs),
  ];
}

export function cliWrites(w: World, timeoutMs: number): Promise<SurfaceResult>[] {
  return [
    cli(
      w,
      'record',
      ['record', '--type', 'decision', '--title', 'Faulted write', '--body', 'Written under a fault.'],
      timeoutMs,
    ),
    cli(
      w,
      'supersede',
      ['supersede', w.id, '--body', 'Replaced under a fault.', '--rationale', 'test'],
      timeoutMs,
    ),
    cli(w, 'merge --dismiss', ['merge', w.id, w.other, '--dismiss'], timeoutMs),
  ];
}

export function hooks(w: World, timeoutMs: number): Promise<SurfaceResult>[] {
  const base = (event: string, extra: Record<string, unknown> = {}) => ({
    session_id: `fault-${event}`,
    transcript_path: join(w.home, 'no-transcript.jsonl'),
    cwd: w.repo,
    hook_event_name: event,
    ...extra,
  });
  const payloads: Record<string, unknown> = {
    'session-start': base('SessionStart', { source: 'startup' }),
    'user-prompt-submit': base('UserPromptSubmit', { prompt: 'where do ledger payments go?' }),
    stop: base('Stop', { stop_hook_active: false }),
    'pre-compact': base('PreCompact', { trigger: 'auto' }),
    'post-tool-use': base('PostToolUse', {
      tool_name: 'Bash',
      tool_input: { command: 'npm test' },
      tool_response: { stdout: '', stderr: 'TypeError: ledger is undefined', interrupted: false },
    }),
    'session-end': base('SessionEnd', { reason: 'exit' }),
    'cwd-changed': base('CwdChanged', { old_cwd: w.repo, new_cwd: w.home }),
    'subagent-start': base('SubagentStart', { agent_id: 'a0', agent_type: 'general-purpose' }),
  };
  return Object.entries(payloads).map(async ([hook, payload]) => {
    const t0 = Date.now();
    const r = await spawnCollect(process.execPath, [BIN, 'hook', hook], {
      cwd: w.repo,
      env: { ...w.env, AGENTCTX_BACKGROUND_DEADLINE_MS: '3000' },
      input: JSON.stringify(payload),
      timeoutMs,
    });
    return judgeHook(hook, r, Date.now() - t0);
  });
}

function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
    }),
  ]);
}

/** The MCP tools, through one real server; a server that cannot start is judged on its error. */
export async function mcpTools(w: World, timeoutMs: number): Promise<SurfaceResult[]> {
  const t0 = Date.now();
  let s: McpSession;
  try {
    s = await withTimeout(startMcp(w.repo, w.env), timeoutMs, 'mcp start');
  } catch (err) {
    const msg = (err as Error).message;
    return [
      { surface: 'mcp start', ms: Date.now() - t0, ok: !/no answer/.test(msg), answered: false, detail: msg },
    ];
  }
  const calls: [string, Record<string, unknown>][] = [
    ['ctx_search', { query: 'ledger payments' }],
    ['ctx_get', { ids: [w.id] }],
    ['ctx_related', { file: 'src/ledger.ts' }],
    ['ctx_project', {}],
    [
      'ctx_record',
      { type: 'decision', title: 'MCP faulted write', body: 'Written through MCP under a fault.' },
    ],
  ];
  const out: SurfaceResult[] = [];
  try {
    for (const [name, args] of calls) {
      const c0 = Date.now();
      try {
        const res = await withTimeout(s.call(name, args), timeoutMs, name);
        const clear = !STACK.test(res.text) && (!res.isError || typeof res.json.error === 'string');
        out.push({
          surface: `mcp ${name}`,
          ms: Date.now() - c0,
          ok: clear,
          answered: !res.isError,
          detail: res.isError ? res.text.slice(0, 300) : '',
        });
      } catch (err) {
        out.push({
          surface: `mcp ${name}`,
          ms: Date.now() - c0,
          ok: false,
          answered: false,
          detail: (err as Error).message,
        });
      }
    }
    const stack = STACK.test(s.stderr());
    if (stack)
      out.push({
        surface: 'mcp stderr',
        ms: 0,
        ok: false,
        answered: false,
        detail: s.stderr().slice(0, 500),
      });
  } finally {
    await s.close().catch(() => {});
  }
  return out;
}
