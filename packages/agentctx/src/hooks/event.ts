/**
 * Claude Code hook payloads, checked by hand (no schema library on the hook path). Anything
 * missing or of the wrong type becomes a safe default; the handlers decide what is usable.
 */

export const HOOK_NAMES = [
  'session-start',
  'user-prompt-submit',
  'stop',
  'pre-compact',
  'post-tool-use',
  'session-end',
  'cwd-changed',
  'subagent-start',
] as const;
export type HookName = (typeof HOOK_NAMES)[number];

export function isHookName(v: unknown): v is HookName {
  return typeof v === 'string' && (HOOK_NAMES as readonly string[]).includes(v);
}

/** Fields every payload carries. Strings are '' when absent or not strings. */
interface BaseEvent {
  sessionId: string;
  transcriptPath: string;
  /** The payload's cwd, else CLAUDE_PROJECT_DIR, else the process cwd. */
  cwd: string;
  hookEventName: string;
}

export interface SessionStartEvent extends BaseEvent {
  kind: 'session-start';
  source: 'startup' | 'resume' | 'compact' | 'clear' | 'other';
}
export interface UserPromptEvent extends BaseEvent {
  kind: 'user-prompt-submit';
  prompt: string;
}
export interface StopEvent extends BaseEvent {
  kind: 'stop';
  stopHookActive: boolean;
}
export interface PreCompactEvent extends BaseEvent {
  kind: 'pre-compact';
  trigger: string;
}
export interface PostToolUseEvent extends BaseEvent {
  kind: 'post-tool-use';
  toolName: string;
  toolInput: Record<string, unknown>;
  /** The tool's response as sent (Bash: {stdout, stderr, interrupted, …}; may be a string). */
  toolResponse: unknown;
  /** PostToolUseFailure carries the failure text here. */
  error: string;
}
export interface SessionEndEvent extends BaseEvent {
  kind: 'session-end';
  reason: string;
}
export interface CwdChangedEvent extends BaseEvent {
  kind: 'cwd-changed';
  oldCwd: string;
  newCwd: string;
}

export interface SubagentStartEvent extends BaseEvent {
  kind: 'subagent-start';
  /** The subagent's id (its transcript is `<session>/subagents/agent-<id>.jsonl`). */
  agentId: string;
  agentType: string;
  /** The task, when the payload carries it (claude 2.1.332 does not: see claude/subagent-task.ts). */
  prompt: string;
}

export type HookEvent =
  | SessionStartEvent
  | UserPromptEvent
  | StopEvent
  | PreCompactEvent
  | PostToolUseEvent
  | SessionEndEvent
  | CwdChangedEvent
  | SubagentStartEvent;

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function str(o: Obj, key: string, max = 1_000_000): string {
  const v = o[key];
  return typeof v === 'string' ? v.slice(0, max) : '';
}

/** Parse stdin text; garbage, arrays and scalars become an empty object. */
export function parsePayload(raw: string): Obj {
  const text = raw.trim();
  if (!text.startsWith('{')) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return isObj(v) ? v : {};
  } catch {
    return {};
  }
}

const SOURCES = ['startup', 'resume', 'compact', 'clear'] as const;

/**
 * The typed event for `name`. `fallbackCwd` is used when the payload has no usable cwd.
 */
export function toHookEvent(name: HookName, o: Obj, fallbackCwd: string): HookEvent {
  const cwd = str(o, 'cwd', 4096);
  const base: BaseEvent = {
    sessionId: str(o, 'session_id', 256),
    transcriptPath: str(o, 'transcript_path', 4096),
    cwd: cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd) ? cwd : fallbackCwd,
    hookEventName: str(o, 'hook_event_name', 64),
  };
  switch (name) {
    case 'session-start': {
      const s = str(o, 'source', 32);
      const source = (SOURCES as readonly string[]).includes(s)
        ? (s as SessionStartEvent['source'])
        : 'other';
      return { ...base, kind: name, source };
    }
    case 'user-prompt-submit':
      return { ...base, kind: name, prompt: str(o, 'prompt', 200_000) };
    case 'stop':
      return { ...base, kind: name, stopHookActive: o.stop_hook_active === true };
    case 'pre-compact':
      return { ...base, kind: name, trigger: str(o, 'trigger', 32) };
    case 'post-tool-use':
      return {
        ...base,
        kind: name,
        toolName: str(o, 'tool_name', 256),
        toolInput: isObj(o.tool_input) ? o.tool_input : {},
        toolResponse: o.tool_response,
        error: str(o, 'error', 100_000),
      };
    case 'session-end':
      return { ...base, kind: name, reason: str(o, 'reason', 64) };
    case 'subagent-start':
      return {
        ...base,
        kind: name,
        agentId: str(o, 'agent_id', 256),
        agentType: str(o, 'agent_type', 256),
        prompt: str(o, 'prompt', 200_000),
      };
    case 'cwd-changed': {
      const newCwd = str(o, 'new_cwd', 4096);
      return {
        ...base,
        kind: name,
        oldCwd: str(o, 'old_cwd', 4096),
        newCwd: newCwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(newCwd) ? newCwd : '',
      };
    }
  }
}
