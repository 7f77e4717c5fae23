/**
 * The hook entries agentctx registers in Claude Code's settings, and how to find ours among
 * the user's own: every command we write starts with `agentctx hook `.
 */
import { getProp, type JsonArray, type JsonNode, toValue } from './json-text.js';

/** One hook agentctx registers: the Claude Code event, our sub-command, its timeout in seconds. */
export interface HookSpec {
  event: string;
  slug: string;
  timeout: number;
  async?: boolean;
  matcher?: string;
  /** The agent the command names (`--agent codex`); none for Claude Code, the default. */
  agent?: string;
}

/**
 * What `agentctx init` registers. Timeouts are ceilings, not budgets: the prompt hook targets
 * ≤ 150 ms, Stop/SessionEnd only spawn a detached child and return.
 */
export const HOOK_SPECS: readonly HookSpec[] = [
  { event: 'SessionStart', slug: 'session-start', timeout: 10 },
  { event: 'UserPromptSubmit', slug: 'user-prompt-submit', timeout: 10 },
  { event: 'PostToolUse', slug: 'post-tool-use', timeout: 30, async: true, matcher: '*' },
  // a failing tool (a Bash command with a non-zero exit) fires this instead of PostToolUse
  { event: 'PostToolUseFailure', slug: 'post-tool-use', timeout: 30, async: true, matcher: '*' },
  { event: 'PreCompact', slug: 'pre-compact', timeout: 15 },
  { event: 'Stop', slug: 'stop', timeout: 10 },
  { event: 'SessionEnd', slug: 'session-end', timeout: 10 },
  { event: 'CwdChanged', slug: 'cwd-changed', timeout: 10 },
  // a subagent starts with none of the session's injections: it gets its own, for its task
  { event: 'SubagentStart', slug: 'subagent-start', timeout: 10 },
];

/** Every command agentctx writes starts with this; nothing else in a settings file does. */
const OUR_COMMAND_PREFIX = 'agentctx hook ';

function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trim().startsWith(OUR_COMMAND_PREFIX);
}

function hookCommand(spec: HookSpec): string {
  return `${OUR_COMMAND_PREFIX}${spec.slug}${spec.agent ? ` --agent ${spec.agent}` : ''}`;
}

export function hookEntry(spec: HookSpec): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    type: 'command',
    command: hookCommand(spec),
    timeout: spec.timeout,
  };
  if (spec.async) entry.async = true;
  return entry;
}

export function hookGroup(spec: HookSpec): Record<string, unknown> {
  return spec.matcher === undefined
    ? { hooks: [hookEntry(spec)] }
    : { matcher: spec.matcher, hooks: [hookEntry(spec)] };
}

interface OurEntry {
  group: number;
  entry: number;
  /** The whole group holds nothing but our entries. */
  groupIsOurs: boolean;
}

export function ourEntries(eventArr: JsonArray): OurEntry[] {
  const out: OurEntry[] = [];
  eventArr.items.forEach((group, g) => {
    if (group.kind !== 'object') return;
    const hooks = getProp(group, 'hooks')?.value;
    if (hooks?.kind !== 'array') return;
    const mine = hooks.items
      .map((h, e) => ({ h, e }))
      .filter(
        ({ h }) => h.kind === 'object' && isOurCommand(toValue(getProp(h, 'command')?.value ?? nullNode)),
      );
    for (const { e } of mine)
      out.push({ group: g, entry: e, groupIsOurs: mine.length === hooks.items.length });
  });
  return out;
}

export const nullNode: JsonNode = { kind: 'scalar', start: 0, end: 0, value: null };
