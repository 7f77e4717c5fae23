import { appendMember, applyEdit, getProp, removeMember, toValue } from '../claude/json-text.js';
import { expectArray, expectObject, parseSettings } from '../claude/settings-file.js';
import { isOurCommand } from '../claude/settings-hook-entries.js';

/**
 * Hook files in the `{"version": 1, "hooks": {"<event>": [<entry>, …]}}` shape (Cursor's
 * hooks.json): one flat list of entries per event, no matcher groups. Ours are the entries
 * whose command field starts with `agentctx hook `; everything else keeps its bytes. What init
 * added besides entries (`version`, an empty container it filled) is returned for the removal.
 */

export interface FlatHookSpec {
  event: string;
  entry: Record<string, unknown>;
}

export interface FlatRestore {
  /** `version` was added by init. */
  addedVersion?: boolean;
  /** Containers init found empty, by dotted path, with their inner text. */
  empty: Record<string, string>;
}

const isOurs = (entry: unknown, field: string) =>
  typeof entry === 'object' && entry !== null && isOurCommand((entry as Record<string, unknown>)[field]);

function locate(text: string, path: string, event: string) {
  const { root } = parseSettings(text, path);
  const hooks = expectObject(getProp(root, 'hooks')?.value, '"hooks"', path);
  const arr = hooks ? expectArray(getProp(hooks, event)?.value, `"hooks.${event}"`, path) : undefined;
  return { root, hooks, arr };
}

/** Our entries (by `field`: `command`, or Copilot's `bash`) in, replacing any of ours that differ. */
export function planFlatInstall(
  current: string | null,
  path: string,
  specs: readonly FlatHookSpec[],
  field = 'command',
): { text: string; changed: boolean; added: string[]; restore: FlatRestore } {
  let text = parseSettings(current, path).text;
  const restore: FlatRestore = { empty: {} };
  const added: string[] = [];
  {
    const { root, hooks } = locate(text, path, '');
    if (!getProp(root, 'version')) {
      // Cursor reads only files that say which format they are in
      restore.addedVersion = true;
      text = applyEdit(text, appendMember(text, root, 1, 'version'));
    }
    if (hooks && hooks.props.length === 0) restore.empty.hooks = text.slice(hooks.start + 1, hooks.end - 1);
  }
  for (const spec of specs) {
    let { root, hooks, arr } = locate(text, path, spec.event);
    if (arr && arr.items.length === 0)
      restore.empty[`hooks.${spec.event}`] = text.slice(arr.start + 1, arr.end - 1);
    const mine = arr ? arr.items.filter((i) => isOurs(toValue(i), field)) : [];
    if (mine.length === 1 && JSON.stringify(toValue(mine[0]!)) === JSON.stringify(spec.entry)) continue;
    // drop ours (from the end, so indexes hold), then add the wanted entry
    while (arr) {
      const idx = arr.items.map((i) => isOurs(toValue(i), field)).lastIndexOf(true);
      if (idx < 0) break;
      text = applyEdit(text, removeMember(text, arr, idx));
      ({ root, hooks, arr } = locate(text, path, spec.event));
    }
    if (!hooks) text = applyEdit(text, appendMember(text, root, { [spec.event]: [spec.entry] }, 'hooks'));
    else if (!arr) text = applyEdit(text, appendMember(text, hooks, [spec.entry], spec.event));
    else text = applyEdit(text, appendMember(text, arr, spec.entry));
    added.push(spec.event);
  }
  if ((current === null || current.trim() === '') && !text.endsWith('\n')) text += '\n';
  return { text, changed: text !== (current ?? ''), added, restore };
}

/** Every entry of ours out; containers that held only ours go, or back to what init found. */
export function planFlatRemove(
  current: string,
  path: string,
  restore: FlatRestore = { empty: {} },
  field = 'command',
): { text: string; removed: string[] } {
  let text = current;
  const removed: string[] = [];
  const { hooks: first } = locate(text, path, '');
  const events = first ? [...new Set(first.props.map((p) => p.key))] : [];
  for (const event of events) {
    for (;;) {
      const { root, hooks, arr } = locate(text, path, event);
      if (!hooks || !arr) break;
      const idx = arr.items.map((i) => isOurs(toValue(i), field)).lastIndexOf(true);
      if (idx < 0) break;
      if (!removed.includes(event)) removed.push(event);
      if (arr.items.length > 1) {
        text = applyEdit(text, removeMember(text, arr, idx));
        continue;
      }
      const keptArr = restore.empty[`hooks.${event}`];
      if (keptArr !== undefined) {
        text = applyEdit(text, { start: arr.start + 1, end: arr.end - 1, text: keptArr });
        break;
      }
      if (hooks.props.length > 1) {
        text = applyEdit(text, removeMember(text, hooks, hooks.props.lastIndexOf(getProp(hooks, event)!)));
        break;
      }
      if (restore.empty.hooks !== undefined) {
        text = applyEdit(text, { start: hooks.start + 1, end: hooks.end - 1, text: restore.empty.hooks });
        break;
      }
      text = applyEdit(text, removeMember(text, root, root.props.lastIndexOf(getProp(root, 'hooks')!)));
      break;
    }
  }
  if (restore.addedVersion && removed.length > 0) {
    const { root } = parseSettings(text, path);
    const v = getProp(root, 'version');
    if (v) text = applyEdit(text, removeMember(text, root, root.props.lastIndexOf(v)));
  }
  return { text, removed };
}
