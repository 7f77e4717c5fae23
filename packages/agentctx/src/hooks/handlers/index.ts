import type { HookContext } from '../context.js';
import type { HookEvent, HookName } from '../event.js';
import { cwdChanged } from './cwd-changed.js';
import { postToolUse } from './post-tool-use.js';
import { preCompact } from './pre-compact.js';
import { sessionEnd } from './session-end.js';
import { sessionStart } from './session-start.js';
import { stop } from './stop.js';
import { userPromptSubmit } from './user-prompt-submit.js';

/** What a handler returns: context to inject, or null for no output. */
export type HookResult = { additionalContext: string } | null;

type Handler<E extends HookEvent> = (event: E, ctx: HookContext) => HookResult | Promise<HookResult>;

export const HANDLERS: { [K in HookName]: Handler<Extract<HookEvent, { kind: K }>> } = {
  'session-start': sessionStart,
  'user-prompt-submit': userPromptSubmit,
  stop,
  'pre-compact': preCompact,
  'post-tool-use': postToolUse,
  'session-end': sessionEnd,
  'cwd-changed': cwdChanged,
};
