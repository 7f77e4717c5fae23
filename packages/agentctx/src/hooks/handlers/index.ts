import type { HookName } from '../event.js';
import type { Handler } from '../runner.js';
import { cwdChanged } from './cwd-changed.js';
import { postToolUse } from './post-tool-use.js';
import { preCompact } from './pre-compact.js';
import { sessionEnd } from './session-end.js';
import { sessionStart } from './session-start.js';
import { stop } from './stop.js';
import { subagentStart } from './subagent-start.js';
import { userPromptSubmit } from './user-prompt-submit.js';

/**
 * What a handler returns: context to inject, or null for no output. `systemMessage` is a line
 * the developer must act on (issue 31 #7): Claude Code shows it to the person, where
 * `additionalContext` reaches only the model.
 */
export type HookResult = { additionalContext: string; systemMessage?: string } | null;

export const HANDLERS: { [K in HookName]: Handler<K> } = {
  'session-start': sessionStart,
  'user-prompt-submit': userPromptSubmit,
  stop,
  'pre-compact': preCompact,
  'post-tool-use': postToolUse,
  'session-end': sessionEnd,
  'cwd-changed': cwdChanged,
  'subagent-start': subagentStart,
};
