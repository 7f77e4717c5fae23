import { homedir } from 'node:os';
import { join } from 'node:path';
import { AgentctxError } from '../shared/errors.js';
import {
  appendMember,
  applyEdit,
  getProp,
  type JsonArray,
  type JsonNode,
  type JsonObject,
  JsonSyntaxError,
  parseJsonTree,
  removeMember,
  toValue,
} from './json-text.js';

type Env = Record<string, string | undefined>;

/** One hook agentctx registers: the Claude Code event, our sub-command, its timeout in seconds. */
export interface HookSpec {
  event: string;
  slug: string;
  timeout: number;
  async?: boolean;
  matcher?: string;
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
];

/** Every command agentctx writes starts with this; nothing else in a settings file does. */
export const OUR_COMMAND_PREFIX = 'agentctx hook ';

export function isOurCommand(command: unknown): boolean {
  return typeof command === 'string' && command.trim().startsWith(OUR_COMMAND_PREFIX);
}

export function hookCommand(spec: HookSpec): string {
  return `${OUR_COMMAND_PREFIX}${spec.slug}`;
}

function hookEntry(spec: HookSpec): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    type: 'command',
    command: hookCommand(spec),
    timeout: spec.timeout,
  };
  if (spec.async) entry.async = true;
  return entry;
}

function hookGroup(spec: HookSpec): Record<string, unknown> {
  return spec.matcher === undefined
    ? { hooks: [hookEntry(spec)] }
    : { matcher: spec.matcher, hooks: [hookEntry(spec)] };
}

/** Claude Code's config folder: `CLAUDE_CONFIG_DIR`, else `~/.claude`. */
export function claudeConfigDir(env: Env): string {
  return env.CLAUDE_CONFIG_DIR || join(env.HOME || homedir(), '.claude');
}

export function userSettingsPath(env: Env): string {
  return join(claudeConfigDir(env), 'settings.json');
}

export function projectSettingsPath(repoRoot: string): string {
  return join(repoRoot, '.claude', 'settings.json');
}

/** A settings file's text parsed, or a one-line error naming the file. Empty text counts as `{}`. */
export function parseSettings(text: string | null, path: string): { text: string; root: JsonObject } {
  const src = text === null || text.trim() === '' ? '{}\n' : text;
  let root: JsonNode;
  try {
    root = parseJsonTree(src);
  } catch (err) {
    const why = err instanceof JsonSyntaxError ? err.message : String(err);
    throw new AgentctxError(
      'malformed_settings',
      `${path} is not valid JSON (${why}); fix it and run again`,
      {
        path,
      },
    );
  }
  if (root.kind !== 'object') {
    throw new AgentctxError('malformed_settings', `${path} must hold a JSON object; fix it and run again`, {
      path,
    });
  }
  return { text: src, root };
}

export interface SettingsPlan {
  /** The new file text (unchanged text when nothing changes). */
  text: string;
  changed: boolean;
  added: string[];
  updated: string[];
  removed: string[];
}

function expectObject(node: JsonNode | undefined, what: string, path: string): JsonObject | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'object')
    throw new AgentctxError(
      'malformed_settings',
      `${what} in ${path} is not an object; fix it and run again`,
      {
        path,
      },
    );
  return node;
}

function expectArray(node: JsonNode | undefined, what: string, path: string): JsonArray | undefined {
  if (node === undefined) return undefined;
  if (node.kind !== 'array')
    throw new AgentctxError(
      'malformed_settings',
      `${what} in ${path} is not an array; fix it and run again`,
      {
        path,
      },
    );
  return node;
}

interface OurEntry {
  group: number;
  entry: number;
  /** The whole group holds nothing but our entries. */
  groupIsOurs: boolean;
}

function ourEntries(eventArr: JsonArray): OurEntry[] {
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

const nullNode: JsonNode = { kind: 'scalar', start: 0, end: 0, value: null };

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Locate `hooks` and `hooks.<event>` in the current text (re-parsed after every edit). */
function locate(text: string, path: string, event?: string) {
  const { root } = parseSettings(text, path);
  const hooks = expectObject(getProp(root, 'hooks')?.value, '"hooks"', path);
  const arr =
    event && hooks ? expectArray(getProp(hooks, event)?.value, `"hooks.${event}"`, path) : undefined;
  return { root, hooks, arr };
}

/**
 * Remove every hook entry of ours under one event: a group holding only ours goes whole; an
 * event array or `hooks` object emptied by that removal goes too (so a round trip restores the
 * file). Containers that were already empty are left alone.
 */
function removeOursFromEvent(
  text: string,
  path: string,
  event: string,
  keep: EmptyContainers = {},
): { text: string; removed: boolean } {
  let removed = false;
  for (;;) {
    const { root, hooks, arr } = locate(text, path, event);
    if (!hooks || !arr) return { text, removed };
    const mine = ourEntries(arr);
    const first = mine[0];
    if (!first) return { text, removed };
    removed = true;
    const allGroupsOurs = arr.items.every((_, g) => mine.some((m) => m.group === g && m.groupIsOurs));
    if (allGroupsOurs) {
      // An event array that was empty before init goes back to exactly that.
      const keptEvent = keep[`hooks.${event}`];
      if (keptEvent !== undefined) {
        text = applyEdit(text, { start: arr.start + 1, end: arr.end - 1, text: keptEvent });
        return { text, removed };
      }
      // The whole event key goes; and `hooks` with it when it was the only key (unless init
      // found `hooks` already there and empty).
      if (hooks.props.length === 1) {
        const keptHooks = keep.hooks;
        if (keptHooks !== undefined) {
          text = applyEdit(text, { start: hooks.start + 1, end: hooks.end - 1, text: keptHooks });
          return { text, removed };
        }
        const idx = root.props.lastIndexOf(getProp(root, 'hooks')!);
        text = applyEdit(text, removeMember(text, root, idx));
        return { text, removed };
      }
      const idx = hooks.props.lastIndexOf(getProp(hooks, event)!);
      text = applyEdit(text, removeMember(text, hooks, idx));
      return { text, removed };
    }
    if (first.groupIsOurs) {
      text = applyEdit(text, removeMember(text, arr, first.group));
      continue;
    }
    const group = arr.items[first.group] as JsonObject;
    const inner = getProp(group, 'hooks')!.value as JsonArray;
    text = applyEdit(text, removeMember(text, inner, first.entry));
  }
}

/**
 * Containers (by dotted path) that exist and are empty before init fills them, with their
 * exact inner text: uninstall restores them instead of deleting them.
 */
export type EmptyContainers = Record<string, string>;

function innerText(text: string, node: JsonNode): string {
  return text.slice(node.start + 1, node.end - 1);
}

function emptyHookContainers(text: string, root: JsonObject, specs: readonly HookSpec[]): EmptyContainers {
  const out: EmptyContainers = {};
  const hooks = getProp(root, 'hooks')?.value;
  if (hooks?.kind !== 'object') return out;
  if (hooks.props.length === 0) out.hooks = innerText(text, hooks);
  for (const spec of specs) {
    const arr = getProp(hooks, spec.event)?.value;
    if (arr?.kind === 'array' && arr.items.length === 0) out[`hooks.${spec.event}`] = innerText(text, arr);
  }
  return out;
}

/** The hook entries init wants: add what is missing, fix what differs, keep the rest. */
export function planInstallHooks(
  current: string | null,
  path: string,
  specs = HOOK_SPECS,
): SettingsPlan & { emptyBefore: EmptyContainers } {
  const { text: start, root: startRoot } = parseSettings(current, path);
  const emptyBefore = emptyHookContainers(start, startRoot, specs);
  let text = start;
  const added: string[] = [];
  const updated: string[] = [];
  for (const spec of specs) {
    const { arr } = locate(text, path, spec.event);
    const mine = arr ? ourEntries(arr) : [];
    if (mine.length === 1 && arr) {
      const group = arr.items[mine[0]!.group] as JsonObject;
      const entry = (getProp(group, 'hooks')!.value as JsonArray).items[mine[0]!.entry]!;
      const matcherOk = sameJson(toValue(getProp(group, 'matcher')?.value ?? nullNode), spec.matcher ?? null);
      if (sameJson(toValue(entry), hookEntry(spec)) && (matcherOk || !mine[0]!.groupIsOurs)) continue;
    }
    if (mine.length > 0) {
      text = removeOursFromEvent(text, path, spec.event).text;
      updated.push(spec.event);
    } else added.push(spec.event);
    const loc = locate(text, path, spec.event);
    if (!loc.hooks)
      text = applyEdit(text, appendMember(text, loc.root, { [spec.event]: [hookGroup(spec)] }, 'hooks'));
    else if (!loc.arr) text = applyEdit(text, appendMember(text, loc.hooks, [hookGroup(spec)], spec.event));
    else text = applyEdit(text, appendMember(text, loc.arr, hookGroup(spec)));
  }
  // A file that did not exist (or was empty) is written fresh, ending with a newline.
  if (current === null || current.trim() === '') {
    if (!text.endsWith('\n')) text += '\n';
  }
  return { text, changed: text !== (current ?? ''), added, updated, removed: [], emptyBefore };
}

/** Remove every hook entry of ours, and only those; `keep` restores containers init found empty. */
export function planRemoveHooks(
  current: string | null,
  path: string,
  keep: EmptyContainers = {},
): SettingsPlan {
  if (current === null) return { text: '', changed: false, added: [], updated: [], removed: [] };
  const { text: start, root } = parseSettings(current, path);
  if (current.trim() === '') return { text: current, changed: false, added: [], updated: [], removed: [] };
  const hooks = expectObject(getProp(root, 'hooks')?.value, '"hooks"', path);
  let text = start;
  const removed: string[] = [];
  const events = hooks ? [...new Set(hooks.props.map((p) => p.key))] : [];
  for (const event of events) {
    const loc = locate(text, path, event);
    if (!loc.hooks) break;
    const eventNode = getProp(loc.hooks, event)?.value;
    if (eventNode?.kind !== 'array') continue; // not ours to judge
    const res = removeOursFromEvent(text, path, event, keep);
    text = res.text;
    if (res.removed) removed.push(event);
  }
  return { text, changed: text !== current, added: [], updated: [], removed };
}

/** Our hook commands currently present in a settings text, by event (for status and tests). */
export function installedHooks(text: string | null, path: string): Record<string, string[]> {
  if (text === null) return {};
  const { root } = parseSettings(text, path);
  const hooks = getProp(root, 'hooks')?.value;
  const out: Record<string, string[]> = {};
  if (hooks?.kind !== 'object') return out;
  for (const p of hooks.props) {
    if (p.value.kind !== 'array') continue;
    const arr = p.value;
    for (const m of ourEntries(arr)) {
      const group = arr.items[m.group] as JsonObject;
      const entry = (getProp(group, 'hooks')!.value as JsonArray).items[m.entry]!;
      const cmd = toValue(getProp(entry as JsonObject, 'command')!.value) as string;
      const list = out[p.key] ?? [];
      list.push(cmd);
      out[p.key] = list;
    }
  }
  return out;
}
