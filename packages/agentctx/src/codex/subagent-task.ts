import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isObject, type Json } from '../claude/transcript-json.js';
import { readRegularTail } from '../files/regular-file.js';
import { sleepSync } from '../shared/sleep.js';

/**
 * What a starting Codex subagent was asked to do. Codex 0.169's SubagentStart payload names the
 * parent (`session_id`), the child (`agent_id`, its thread id) and the child's own rollout
 * (`transcript_path`), but not the task, and the child's rollout does not hold it yet when the
 * hook runs (measured: its session_meta and settings only). The parent's rollout does: the
 * `spawn_agent` function call (tool namespace `multi_agent_v1`) whose `arguments.message` is the
 * task, and the call's output `{"agent_id": …}` naming the child, written as spawn_agent returns,
 * which is before or while the child's hooks run (measured: 14 ms before the hook read its input). So: the call whose
 * output names this agent, else the one spawn_agent call with no output yet. Only the tail of the
 * parent's rollout is read; nothing here throws.
 */

const TAIL_BYTES = 2 * 1024 * 1024;
const MAX_TASK_CHARS = 20_000;
/** Day folders looked through for the parent's rollout (it may have started days before). */
const MAX_DAY_DIRS = 40;
const WAIT_MS = 1000;
const POLL_MS = 25;

const safeId = (id: string) => id !== '' && !/[\\/]/.test(id) && !id.includes('..');

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * The parent's rollout: `rollout-<time>-<parent id>.jsonl` in the child's day folder
 * (`sessions/YYYY/MM/DD`), else in the other day folders, newest first.
 */
function parentRollout(childRollout: string, parentId: string): string | null {
  const suffix = `-${parentId}.jsonl`;
  const day = dirname(childRollout);
  const hit = (dir: string) => listDir(dir).find((f) => f.startsWith('rollout-') && f.endsWith(suffix));
  const here = hit(day);
  if (here) return join(day, here);
  const root = dirname(dirname(dirname(day)));
  if (basename(root) !== 'sessions') return null;
  const days: string[] = [];
  for (const y of listDir(root).sort().reverse())
    for (const m of listDir(join(root, y)).sort().reverse())
      for (const d of listDir(join(root, y, m))
        .sort()
        .reverse())
        days.push(join(root, y, m, d));
  for (const dir of days.slice(0, MAX_DAY_DIRS)) {
    if (dir === day) continue;
    const f = hit(dir);
    if (f) return join(dir, f);
  }
  return null;
}

function argsMessage(args: unknown): string {
  if (typeof args !== 'string') return '';
  try {
    const a = JSON.parse(args) as unknown;
    return isObject(a) && typeof a.message === 'string' ? a.message : '';
  } catch {
    return '';
  }
}

function outputAgent(output: unknown): string {
  if (typeof output !== 'string') return '';
  try {
    const o = JSON.parse(output) as unknown;
    return isObject(o) && typeof o.agent_id === 'string' ? o.agent_id : '';
  } catch {
    return '';
  }
}

interface Found {
  text: string;
  from: 'launch' | 'pending' | 'none';
}

function lookUp(path: string, agentId: string): Found {
  let text: string;
  try {
    text = readRegularTail(path, TAIL_BYTES);
  } catch {
    return { text: '', from: 'none' };
  }
  const calls = new Map<string, string>();
  const agentOf = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"spawn_agent"') && !line.includes('"function_call_output"')) continue;
    try {
      const o = JSON.parse(line) as unknown;
      const p = isObject(o) && isObject(o.payload) ? (o.payload as Json) : null;
      if (!p || typeof p.call_id !== 'string') continue;
      if (p.type === 'function_call' && p.name === 'spawn_agent') {
        const message = argsMessage(p.arguments);
        if (message) calls.set(p.call_id, message);
      } else if (p.type === 'function_call_output') agentOf.set(p.call_id, outputAgent(p.output));
    } catch {
      // a half-written line
    }
  }
  for (const [callId, message] of calls)
    if (agentOf.get(callId) === agentId) return { text: message.slice(0, MAX_TASK_CHARS), from: 'launch' };
  const pending = [...calls].filter(([callId]) => !agentOf.has(callId)).map(([, m]) => m);
  return pending.length === 1
    ? { text: pending[0]!.slice(0, MAX_TASK_CHARS), from: 'pending' }
    : { text: '', from: 'none' };
}

/** The task of Codex subagent `agentId` of session `parentId`, or '' when it cannot be told. */
export function codexSubagentTask(
  childRollout: string,
  parentId: string,
  agentId: string,
  waitMs = WAIT_MS,
): string {
  if (!childRollout || !safeId(parentId) || !safeId(agentId)) return '';
  const deadline = Date.now() + waitMs;
  for (;;) {
    const path = parentRollout(childRollout, parentId);
    const found = path ? lookUp(path, agentId) : { text: '', from: 'none' as const };
    if (found.from !== 'none' || Date.now() >= deadline) return found.text;
    sleepSync(POLL_MS);
  }
}
