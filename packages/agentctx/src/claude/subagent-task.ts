import { dirname, join } from 'node:path';
import { readRegularFile, readRegularTail } from '../files/regular-file.js';
import { sleepSync } from '../shared/sleep.js';
import { isObject, type Json } from './transcript-json.js';

/**
 * What a starting subagent was asked to do. Claude Code 2.1.332's SubagentStart payload names
 * the agent (`agent_id`, `agent_type`) but not its task, and the subagent's own transcript does
 * not exist yet when the hook runs. The parent's transcript does hold it: the Agent (formerly
 * Task) tool_use whose `input.prompt` is the task, and, for a subagent launched in the
 * background, a tool result whose `toolUseResult.agentId` names the agent. So: the result that
 * names this agent, else the Agent calls still waiting for their result (the ones starting
 * now), newest first. Only the transcript's tail is read; nothing here throws.
 */

/** Bytes read from the end of the parent transcript: the launching call is among the last lines. */
export const TASK_TAIL_BYTES = 2 * 1024 * 1024;
/** Characters of task text kept (the prompt search reads at most this much of a prompt). */
const MAX_TASK_CHARS = 20_000;
const AGENT_TOOLS = new Set(['Agent', 'Task']);

function taskText(input: Json): string {
  const prompt = typeof input.prompt === 'string' ? input.prompt : '';
  const description = typeof input.description === 'string' ? input.description : '';
  if (!prompt) return description;
  return description && !prompt.includes(description) ? `${description}\n${prompt}` : prompt;
}

interface Scan {
  /** Agent calls in transcript order: id → task text. */
  calls: Map<string, string>;
  /** Tool-use ids that already have a result. */
  answered: Set<string>;
  /** agentId → task text, from background launches' results. */
  byAgent: Map<string, string>;
}

function scanLine(o: Json, scan: Scan): void {
  if (o.isSidechain === true) return; // a subagent's own lines
  const message = isObject(o.message) ? o.message : null;
  const content = message && Array.isArray(message.content) ? message.content : [];
  for (const block of content) {
    if (!isObject(block)) continue;
    if (block.type === 'tool_use' && typeof block.name === 'string' && AGENT_TOOLS.has(block.name)) {
      const id = typeof block.id === 'string' ? block.id : `#${scan.calls.size}`;
      const text = isObject(block.input) ? taskText(block.input) : '';
      if (text) scan.calls.set(id, text);
    } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
      scan.answered.add(block.tool_use_id);
    }
  }
  const result = isObject(o.toolUseResult) ? o.toolUseResult : null;
  if (result && typeof result.agentId === 'string') {
    const text = taskText(result);
    if (text) scan.byAgent.set(result.agentId, text);
  }
}

/** The first prompt of the subagent's own transcript, once Claude Code has written it. */
function ownTranscriptTask(transcriptPath: string, sessionId: string, agentId: string): string {
  if (!agentId || !sessionId || /[\\/]/.test(agentId) || /[\\/]/.test(sessionId)) return '';
  const path = join(dirname(transcriptPath), sessionId, 'subagents', `agent-${agentId}.jsonl`);
  let text: string;
  try {
    text = readRegularFile(path, 256 * 1024);
  } catch {
    return '';
  }
  for (const line of text.split('\n')) {
    try {
      const o = JSON.parse(line) as unknown;
      if (!isObject(o) || o.type !== 'user' || !isObject(o.message)) continue;
      const c = o.message.content;
      if (typeof c === 'string') return c;
      if (Array.isArray(c)) {
        const t = c
          .filter((b): b is Json => isObject(b) && b.type === 'text' && typeof b.text === 'string')
          .map((b) => b.text as string)
          .filter((t) => !t.startsWith('<system-reminder>'))
          .join('\n');
        if (t) return t;
      }
    } catch {
      // a half-written line
    }
  }
  return '';
}

interface TaskLookup {
  text: string;
  /**
   * Where it was found: the launch result naming the agent, the agent's own transcript, the one
   * call still waiting for its result, or several such calls (siblings launched together).
   */
  from: 'launch' | 'own' | 'pending' | 'siblings' | 'none';
  /** The parent transcript could not be read at all. */
  missing?: boolean;
}

/**
 * One look at what is on disk now for subagent `agentId` of the session whose transcript is at
 * `transcriptPath`.
 */
export function lookUpTask(transcriptPath: string, sessionId: string, agentId: string): TaskLookup {
  if (!transcriptPath) return { text: '', from: 'none' };
  const scan: Scan = { calls: new Map(), answered: new Set(), byAgent: new Map() };
  let text = '';
  try {
    text = readRegularTail(transcriptPath, TASK_TAIL_BYTES);
  } catch {
    // not on disk yet: claude -p creates the transcript at its first flush, which can come
    // after the first subagent of the session has started (seen with 2.1.332)
    return { text: '', from: 'none', missing: true };
  }
  for (const line of text.split('\n')) {
    // cheap filter first: most lines are attachments and request snapshots
    if (!line.includes('"tool_use"') && !line.includes('"tool_result"') && !line.includes('agentId'))
      continue;
    try {
      const o = JSON.parse(line) as unknown;
      if (isObject(o)) scanLine(o, scan);
    } catch {
      // a garbage or half-written line: skip it
    }
  }
  const launch = agentId ? scan.byAgent.get(agentId) : undefined;
  if (launch) return { text: launch.slice(0, MAX_TASK_CHARS), from: 'launch' };
  const own = ownTranscriptTask(transcriptPath, sessionId, agentId);
  if (own) return { text: own.slice(0, MAX_TASK_CHARS), from: 'own' };
  const pending = [...scan.calls].filter(([id]) => !scan.answered.has(id)).map(([, t]) => t);
  if (pending.length === 1) return { text: pending[0]!.slice(0, MAX_TASK_CHARS), from: 'pending' };
  // several subagents launched together: each may be this one, newest first
  const joined = pending.reverse().join('\n\n').slice(0, MAX_TASK_CHARS);
  return joined ? { text: joined, from: 'siblings' } : { text: '', from: 'none' };
}

/** How long the hook waits for Claude Code to write the task down (it buffers transcript writes). */
const TASK_WAIT_MS = 1000;
const POLL_MS = 25;

/**
 * The task text of the subagent, or '' when it cannot be told. Claude Code writes transcripts
 * through a buffer: when SubagentStart fires, the launching call may not be on disk yet (seen
 * with claude 2.1.332), so this looks again every few milliseconds. What ends the wait: the
 * launch result naming this agent (background subagents), the agent's own first line, or a
 * single call still waiting for its result (a foreground subagent: its result comes only when
 * it ends). Several waiting calls (siblings launched together) are taken, all of them, only
 * when the wait is over and nothing told them apart. A transcript that does not exist yet is
 * waited for the same way.
 */
export function subagentTask(
  transcriptPath: string,
  sessionId: string,
  agentId: string,
  waitMs = TASK_WAIT_MS,
): TaskLookup {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const found = lookUpTask(transcriptPath, sessionId, agentId);
    if (found.from === 'launch' || found.from === 'own' || found.from === 'pending') return found;
    if (Date.now() >= deadline || !transcriptPath) return found;
    sleepSync(POLL_MS);
  }
}
