/**
 * The edits of a settings text that install and remove agentctx's hooks: add what is missing,
 * fix what differs, remove only ours, and leave the rest of the text as it was.
 */
import {
  appendMember,
  applyEdit,
  getProp,
  type JsonArray,
  type JsonNode,
  type JsonObject,
  removeMember,
  toValue,
} from './json-text.js';
import { expectArray, expectObject, parseSettings, type SettingsPlan } from './settings-file.js';
import {
  HOOK_SPECS,
  type HookSpec,
  hookEntry,
  hookGroup,
  nullNode,
  ourEntries,
} from './settings-hook-entries.js';

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
type EmptyContainers = Record<string, string>;

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
